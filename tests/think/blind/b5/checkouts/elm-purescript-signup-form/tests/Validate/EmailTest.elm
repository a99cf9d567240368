module Validate.EmailTest exposing (suite)

import Expect
import Test exposing (Test, describe, test)
import Validate.Email as Email


suite : Test
suite =
    describe "Validate.Email"
        [ test "accepts a plain address" <|
            \_ -> Email.validate "ada@example.org" |> Expect.equal (Ok "ada@example.org")
        , test "trims and lowercases" <|
            \_ -> Email.validate "  Ada@Example.ORG " |> Expect.equal (Ok "ada@example.org")
        , test "rejects missing at-sign" <|
            \_ -> Email.validate "ada.example.org" |> Expect.equal (Err Email.BadFormat)
        ]
