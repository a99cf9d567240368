module Order exposing (Order, Size(..), pickupSlots, priceCents)


type Size
    = Small
    | Large


type alias Order =
    { item : String, size : Size, qty : Int }


basePrice : Size -> Int
basePrice size =
    case size of
        Small ->
            400

        Large ->
            650


priceCents : Order -> Int
priceCents order =
    basePrice order.size * order.qty


pickupSlots : Int -> List Int
pickupSlots hour =
    List.range (max 7 hour) 16
