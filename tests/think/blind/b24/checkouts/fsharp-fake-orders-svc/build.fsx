#r "paket:
nuget Fake.Core.Target
nuget Fake.DotNet.Cli //"
#load ".fake/build.fsx/intellisense.fsx"

open Fake.Core
open Fake.DotNet
open Fake.Core.TargetOperators

Target.create "Build" (fun _ -> DotNet.build id "Orders.sln")
Target.create "IntegrationTest" (fun _ ->
    DotNet.test (fun o -> { o with NoBuild = true }) "tests/Orders.IntegrationTests")

"Build" ==> "IntegrationTest"
Target.runOrDefault "Build"
