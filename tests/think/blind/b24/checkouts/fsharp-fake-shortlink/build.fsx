#r "paket:
nuget Fake.Core.Target
nuget Fake.DotNet.Cli
nuget Fake.IO.FileSystem //"
#load ".fake/build.fsx/intellisense.fsx"

open Fake.Core
open Fake.DotNet
open Fake.Core.TargetOperators

let sln = "Shortlink.sln"

Target.create "Build" (fun _ -> DotNet.build id sln)

Target.create "Test" (fun _ -> DotNet.test (fun o -> { o with NoBuild = true }) sln)

Target.create "Lint" (fun _ ->
    let r = DotNet.exec id "fsharplint" "lint Shortlink.sln"
    if not r.OK then failwith "Lint failed")

Target.create "CheckFormat" (fun _ ->
    let r = DotNet.exec id "fantomas" "--check src tests build.fsx"
    if r.ExitCode = 99 then failwith "Some files need formatting, run `dotnet fake build -t Format` to format them"
    elif not r.OK then failwith "fantomas failed")

Target.create "Format" (fun _ -> DotNet.exec id "fantomas" "src tests build.fsx" |> ignore)

Target.create "CI" ignore

"Build" ==> "Test" ==> "CI"
"CheckFormat" ==> "CI"
"Lint" ==> "CI"

Target.runOrDefault "Build"
