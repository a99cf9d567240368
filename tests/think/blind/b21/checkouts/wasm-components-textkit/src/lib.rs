#[allow(warnings)]
mod bindings;

pub mod text;

struct Component;

impl bindings::exports::acme::textkit::text::Guest for Component {
    fn word_count(input: String) -> u32 {
        text::word_count(&input)
    }

    fn truncate(input: String, max_graphemes: u32) -> String {
        text::truncate(&input, max_graphemes as usize)
    }
}

bindings::export!(Component with_types_in bindings);
