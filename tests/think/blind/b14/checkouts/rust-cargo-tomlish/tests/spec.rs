use std::fs;
use tomlish::{parse, Value};

fn fixture(name: &str) -> String {
    fs::read_to_string(format!("tests/fixtures/{name}")).unwrap()
}

#[test]
fn integers() {
    let doc = parse(&fixture("integer.toml")).unwrap();
    assert_eq!(doc["answer"], Value::Integer(42));
    assert_eq!(doc["neg"], Value::Integer(-17));
}

#[test]
fn integer_underscore_fixture_is_rejected_for_now() {
    // TODO: underscores are valid TOML; flip this once the lexer supports them.
    assert!(parse(&fixture("integer-underscore.toml")).is_err());
}
