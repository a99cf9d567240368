import gleam/list
import gleam/string

/// Turn a post title into a URL slug: lowercase ASCII letters, digits and
/// single dashes.
pub fn slugify(title: String) -> String {
  title
  |> string.lowercase
  |> string.to_graphemes
  |> list.map(keep_or_dash)
  |> string.concat
  |> collapse_dashes
}

fn keep_or_dash(g: String) -> String {
  case is_alnum(g) {
    True -> g
    False -> "-"
  }
}

fn is_alnum(g: String) -> Bool {
  case g {
    "a" | "b" | "c" | "d" | "e" | "f" | "g" | "h" | "i" | "j" | "k" | "l" | "m" ->
      True
    "n" | "o" | "p" | "q" | "r" | "s" | "t" | "u" | "v" | "w" | "x" | "y" | "z" ->
      True
    "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" -> True
    _ -> False
  }
}

fn collapse_dashes(s: String) -> String {
  s
  |> string.split("-")
  |> list.filter(fn(part) { part != "" })
  |> string.join("-")
}
