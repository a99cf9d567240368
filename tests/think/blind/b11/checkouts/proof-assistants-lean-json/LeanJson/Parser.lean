import LeanJson.Value
namespace LeanJson

partial def parseEscape (it : String.Iterator) : Except String (Char × String.Iterator) :=
  match it.curr with
  | 'n' => .ok ('\n', it.next)
  | 't' => .ok ('\t', it.next)
  | '"' => .ok ('"', it.next)
  | '\\' => .ok ('\\', it.next)
  | c => .error s!"unsupported escape \\{c}"

-- (string/number/array/object parsers follow)
end LeanJson
