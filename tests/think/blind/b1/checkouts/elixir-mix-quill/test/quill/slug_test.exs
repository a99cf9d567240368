defmodule Quill.SlugTest do
  use ExUnit.Case, async: true
  doctest Quill.Slug

  alias Quill.Slug

  test "lowercases and hyphenates" do
    assert Slug.slugify("Hello World") == "hello-world"
  end

  test "collapses repeated separators" do
    assert Slug.slugify("a  --  b") == "a-b"
  end
end
