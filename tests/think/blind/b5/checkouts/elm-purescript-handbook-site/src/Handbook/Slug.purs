module Handbook.Slug (slugify) where

import Prelude

import Data.Array (filter)
import Data.String (joinWith, toLower)
import Data.String.CodeUnits (fromCharArray, toCharArray)
import Data.String.Common (split)
import Data.String.Pattern (Pattern(..))
import Data.CodePoint.Unicode (isAlphaNum)
import Data.String.CodePoints (codePointFromChar)

slugify :: String -> String
slugify =
  toLower
    >>> toCharArray
    >>> map (\c -> if isAlphaNum (codePointFromChar c) then c else if c == '\'' then '\'' else ' ')
    >>> filter (_ /= '\'')
    >>> fromCharArray
    >>> split (Pattern " ")
    >>> filter (_ /= "")
    >>> joinWith "-"
