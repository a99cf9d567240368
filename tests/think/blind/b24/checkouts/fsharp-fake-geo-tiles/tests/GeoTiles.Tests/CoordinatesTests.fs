module GeoTiles.Tests.CoordinatesTests

open Expecto
open GeoTiles

[<Tests>]
let tests =
    testList "coordinates" [
        test "wraps longitude" {
            let p = LatLon.create 10.0 190.0
            Expect.floatClose Accuracy.high p.Lon -170.0 ""
        }
        test "rejects latitude above 90" {
            Expect.throws (fun () -> LatLon.create 91.0 0.0 |> ignore) ""
        }
    ]
