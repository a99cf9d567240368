import envy
import gleam/erlang/os
import gleeunit
import gleeunit/should

pub fn main() -> Nil {
  gleeunit.main()
}

pub fn get_int_test() {
  os.set_env("ENVY_TEST_PORT", " 8080 ")
  envy.get_int("ENVY_TEST_PORT") |> should.equal(Ok(8080))
}

pub fn get_int_invalid_test() {
  os.set_env("ENVY_TEST_PORT", "eighty")
  envy.get_int("ENVY_TEST_PORT")
  |> should.equal(Error(envy.Invalid("ENVY_TEST_PORT", "eighty")))
}

pub fn get_bool_yes_test() {
  os.set_env("ENVY_TEST_FLAG", "YES")
  envy.get_bool("ENVY_TEST_FLAG") |> should.equal(Ok(True))
}

pub fn missing_test() {
  envy.get("ENVY_DEFINITELY_UNSET")
  |> should.equal(Error(envy.Missing("ENVY_DEFINITELY_UNSET")))
}
