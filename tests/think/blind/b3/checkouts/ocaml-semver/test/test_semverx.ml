let v = Semverx.of_string_exn

let test_core () =
  Alcotest.(check int) "minor" (-1) (Semverx.compare (v "1.2.0") (v "1.3.0"))

let () =
  Alcotest.run "semverx" [ ("compare", [ Alcotest.test_case "core" `Quick test_core ]) ]
