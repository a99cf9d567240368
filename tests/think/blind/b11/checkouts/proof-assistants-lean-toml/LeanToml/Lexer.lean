namespace LeanToml

inductive Tok where
  | ident (s : String) | eq | dot | str (s : String) | int (n : Int) | lbrack | rbrack | nl
  deriving Repr, BEq

-- lexer functions follow
end LeanToml
