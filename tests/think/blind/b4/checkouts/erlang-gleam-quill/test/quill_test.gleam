import gleeunit

pub fn main() -> Nil {
  gleeunit.main()
}
