module Shortlink.Api.Tests.RoutesTests

open System.Net
open Xunit
open Shortlink.Api.Tests.Host

[<Fact>]
let ``GET /api/links returns 200`` () =
    task {
        use! client = createClient ()
        let! resp = client.GetAsync "/api/links"
        Assert.Equal(HttpStatusCode.OK, resp.StatusCode)
    }

[<Fact>]
let ``GET /{slug} redirects to target`` () =
    task {
        use! client = createClient ()
        let! resp = client.GetAsync "/fsh"
        Assert.Equal(HttpStatusCode.Redirect, resp.StatusCode)
    }
