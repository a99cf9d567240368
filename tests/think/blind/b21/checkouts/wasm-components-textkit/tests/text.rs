use textkit::text::{truncate, word_count};

#[test]
fn counts_words() {
    assert_eq!(word_count("the quick brown fox"), 4);
}

#[test]
fn counts_words_with_punctuation() {
    assert_eq!(word_count("Hello, world! It's fine."), 4);
}

#[test]
fn truncates_by_grapheme() {
    assert_eq!(truncate("héllo wörld", 5), "héllo");
    assert_eq!(truncate("🇩🇪🇫🇷", 1), "🇩🇪");
}
