module TinyKv.Tests.StorageTests

open Expecto
open TinyKv

[<Tests>]
let tests =
    testList "storage" [
        test "set then get returns value" {
            use db = TinyKv.openInMemory ()
            TinyKv.set db "a" "1"B
            Expect.equal (TinyKv.get db "a") (Some "1"B) ""
        }
        test "scan filters by prefix" {
            use db = TinyKv.openInMemory ()
            TinyKv.set db "user:1" "x"B
            TinyKv.set db "order:1" "y"B
            Expect.equal (TinyKv.scan db "user:" |> Seq.map fst |> List.ofSeq) [ "user:1" ] ""
        }
    ]
