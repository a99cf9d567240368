module Invoicer.Money
  ( Cents(..)
  , addVat
  , formatGbp
  ) where

import Prelude

import Data.Int (round, toNumber)
import Data.String (length)

newtype Cents = Cents Int

derive newtype instance Eq Cents
derive newtype instance Show Cents

addVat :: Int -> Cents -> Cents
addVat rate (Cents c) = Cents (c + round (toNumber (c * rate) / 100.0))

formatGbp :: Cents -> String
formatGbp (Cents c) = "£" <> show (c / 100) <> "." <> pad (show (c `mod` 100))
  where
  pad s = if length s < 2 then "0" <> s else s
