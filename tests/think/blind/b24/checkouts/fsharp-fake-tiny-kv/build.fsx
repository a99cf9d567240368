#r "paket:
nuget Fake.Core.Target
nuget Fake.DotNet.Cli //"
#load ".fake/build.fsx/intellisense.fsx"

open Fake.Core
open Fake.DotNet
open Fake.Core.TargetOperators

Target.create "Restore" (fun _ -> DotNet.exec id "paket" "restore" |> ignore)
Target.create "Build" (fun _ -> DotNet.build (fun o -> { o with Configuration = DotNet.Release }) "TinyKv.sln")
Target.create "Test" (fun _ ->
    let r = DotNet.exec id "run" "--project tests/TinyKv.Tests -c Release --no-build"
    if not r.OK then failwith "tests failed")

"Restore" ==> "Build" ==> "Test"

Target.runOrDefault "Build"
