type t = { major : int; minor : int; patch : int; pre : string list; build : string list }

let compare_core a b =
  match compare a.major b.major with
  | 0 -> (match compare a.minor b.minor with 0 -> compare a.patch b.patch | c -> c)
  | c -> c

let compare a b = compare_core a b
