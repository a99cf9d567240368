use serde::Deserialize;

#[derive(Debug, Deserialize)]
pub struct Config {
    pub chunk_size: Option<u64>,
    pub flush_interval_ms: Option<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_default() {
        let c: Config = toml::from_str("chunk_size = 8192").unwrap();
        assert_eq!(c.chunk_size, Some(8192));
    }
}
