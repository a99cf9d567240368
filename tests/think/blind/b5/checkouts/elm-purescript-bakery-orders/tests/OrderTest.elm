module OrderTest exposing (suite)

import Expect
import Order exposing (Order, Size(..))
import Test exposing (Test, describe, test)


suite : Test
suite =
    describe "Order"
        [ describe "priceCents"
            [ test "loaf prices by size" <|
                \_ ->
                    Order.priceCents { item = "sourdough", size = Large, qty = 2 }
                        |> Expect.equal 1300
            , test "zero quantity costs nothing" <|
                \_ ->
                    Order.priceCents { item = "rye", size = Small, qty = 0 }
                        |> Expect.equal 0
            ]
        , describe "pickupSlots"
            [ test "no slots before opening" <|
                \_ ->
                    Order.pickupSlots 6
                        |> List.head
                        |> Expect.equal (Just 7)
            ]
        ]
