#r "paket:
nuget Fake.Core.Target
nuget Fake.DotNet.Cli
nuget Fake.IO.FileSystem //"
#load ".fake/build.fsx/intellisense.fsx"

open Fake.Core
open Fake.DotNet
open Fake.IO
open Fake.Core.TargetOperators

Target.initEnvironment ()

Target.create "Clean" (fun _ -> !! "src/**/bin" ++ "src/**/obj" ++ "tests/**/bin" ++ "tests/**/obj" |> Shell.cleanDirs)

Target.create "Build" (fun _ -> DotNet.build id "Slugger.sln")

Target.create "Test" (fun _ ->
    DotNet.exec id "run" "--project tests/Slugger.Tests -c Release"
    |> fun r -> if not r.OK then failwithf "Tests failed: %A" r.Errors)

Target.create "Format" (fun _ -> DotNet.exec id "fantomas" "src tests build.fsx" |> ignore)

Target.create "All" ignore

"Clean" ==> "Build" ==> "Test" ==> "All"

Target.runOrDefault "All"
