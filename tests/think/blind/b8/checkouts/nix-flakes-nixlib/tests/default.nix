{ lib }:
{
  testSnakeSimple = {
    expr = lib.strings.toSnakeCase "fooBar";
    expected = "foo_bar";
  };
  testSnakeDashes = {
    expr = lib.strings.toSnakeCase "foo-bar-baz";
    expected = "foo_bar_baz";
  };
}
