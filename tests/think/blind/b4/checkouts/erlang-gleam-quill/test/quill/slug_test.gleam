import gleeunit/should
import quill/slug

pub fn simple_title_test() {
  slug.slugify("Hello World")
  |> should.equal("hello-world")
}

pub fn punctuation_collapses_test() {
  slug.slugify("Gleam: 1.0 -- finally!")
  |> should.equal("gleam-1-0-finally")
}

pub fn accented_letters_test() {
  slug.slugify("Café au lait")
  |> should.equal("caf-au-lait")
}
