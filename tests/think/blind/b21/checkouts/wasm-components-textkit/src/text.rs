use unicode_segmentation::UnicodeSegmentation;

pub fn word_count(input: &str) -> u32 {
    input.unicode_words().count() as u32
}

pub fn truncate(input: &str, max: usize) -> String {
    input.graphemes(true).take(max).collect()
}
