import LeanToml

open LeanToml

def check (name : String) (b : Bool) : IO Bool := do
  unless b do IO.eprintln s!"FAIL: {name}"
  return b

def main : IO UInt32 := do
  let rs ← [
    check "bare key" (parse "a = 1" == .ok (.table [("a", .int 1)])),
    check "string" (parse "s = \"x\"" == .ok (.table [("s", .str "x")])),
    check "dotted key" (parse "a.b = true" == .ok (.table [("a", .table [("b", .bool true)])]))
  ].mapM id
  return if rs.all id then 0 else 1
