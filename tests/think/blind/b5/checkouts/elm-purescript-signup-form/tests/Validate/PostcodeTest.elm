module Validate.PostcodeTest exposing (suite)

import Expect
import Test exposing (Test, describe, test)
import Validate.Postcode as Postcode


suite : Test
suite =
    describe "Validate.Postcode"
        [ test "empty input" <|
            \_ -> Postcode.validate "  " |> Expect.equal (Err Postcode.Empty)
        , test "normalises spacing and case" <|
            \_ -> Postcode.validate "sw1a1aa" |> Expect.equal (Ok "SW1A 1AA")
        , test "rejects too short" <|
            \_ -> Postcode.validate "SW1" |> Expect.equal (Err Postcode.BadFormat)
        ]
