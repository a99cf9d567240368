use slugify::slugify;

#[test]
fn lowercases_ascii() {
    assert_eq!(slugify("Hello World"), "hello-world");
}

#[test]
fn collapses_separators() {
    assert_eq!(slugify("a -- b__c"), "a-b-c");
}
