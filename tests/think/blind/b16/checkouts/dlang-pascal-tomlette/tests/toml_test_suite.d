module toml_test_suite;

import tomlette;

// Selected cases from toml-test (valid/*).
unittest
{
    auto doc = parseToml(`title = "TOML"` ~ "\n" ~ `n = 0x_dead`);
    assert(doc["title"].str == "TOML");
}

unittest
{
    auto doc = parseToml("arr = [1, 2, 3]");
    assert(doc["arr"].array.length == 3);
}
