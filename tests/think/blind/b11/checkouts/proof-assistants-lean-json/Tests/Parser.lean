import LeanJson.Parser
namespace Tests.Parser
open LeanJson

def cases : List (String × Except String Value) := [
  ("null", .ok .null),
  ("[1, 2]", .ok (.arr #[.num 1, .num 2])),
  ("\"a\\nb\"", .ok (.str "a\nb")),
  ("{\"k\": true}", .ok (.obj [("k", .bool true)]))
]

def run : IO Nat := do
  let mut bad := 0
  for (src, want) in cases do
    if parse src != want then
      IO.eprintln s!"FAIL parse {src}"; bad := bad + 1
  return bad
end Tests.Parser
