import gleam/erlang/os
import gleam/int
import gleam/result
import gleam/string

pub type EnvError {
  Missing(name: String)
  Invalid(name: String, value: String)
}

/// Read a variable as a string.
pub fn get(name: String) -> Result(String, EnvError) {
  os.get_env(name) |> result.replace_error(Missing(name))
}

/// Read a variable and parse it as an integer.
pub fn get_int(name: String) -> Result(Int, EnvError) {
  use value <- result.try(get(name))
  int.parse(string.trim(value)) |> result.replace_error(Invalid(name, value))
}

/// Read a variable and parse it as a boolean. Accepts "true"/"false",
/// "1"/"0" and "yes"/"no", case-insensitivly.
pub fn get_bool(name: String) -> Result(Bool, EnvError) {
  use value <- result.try(get(name))
  parse_bool(value) |> result.replace_error(Invalid(name, value))
}

fn parse_bool(value: String) -> Result(Bool, Nil) {
  case string.lowercase(string.trim(value)) {
    "true" | "1" | "yes" -> Ok(True)
    "false" | "0" | "no" -> Ok(False)
    _ -> Error(Nil)
  }
}
