module Slugger.Tests.SlugTests

open Expecto
open Slugger

[<Tests>]
let tests =
    testList "slug" [
        test "replaces spaces with dashes" {
            Expect.equal (Slug.slugify "Hello World") "Hello-World" ""
        }
        test "collapses punctuation" {
            Expect.equal (Slug.slugify "F#, .NET & you!") "F-NET-you" ""
        }
        test "trims leading and trailing separators" {
            Expect.equal (Slug.slugify "  -- draft --  ") "draft" ""
        }
    ]
