#[allow(warnings)]
mod bindings;

use bindings::exports::acme::urlkit::codec::Guest;

struct Component;

impl Guest for Component {
    fn percent_decode(input: String) -> Result<String, String> {
        decode(&input)
    }

    fn slugify(input: String) -> String {
        input
            .to_lowercase()
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join("-")
    }
}

fn decode(input: &str) -> Result<String, String> {
    let bytes = input.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = input.get(i + 1..i + 3).ok_or("truncated escape")?;
            out.push(u8::from_str_radix(hex, 16).map_err(|e| e.to_string())?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|e| e.to_string())
}

bindings::export!(Component with_types_in bindings);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_space() {
        assert_eq!(decode("a%20b").unwrap(), "a b");
    }

    #[test]
    fn rejects_truncated() {
        assert!(decode("abc%2").is_err());
    }

    #[test]
    fn slugifies() {
        assert_eq!(Component::slugify("Hello, World!".into()), "hello-world");
    }
}
