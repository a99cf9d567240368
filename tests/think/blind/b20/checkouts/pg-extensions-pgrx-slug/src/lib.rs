use pgrx::prelude::*;
use unicode_normalization::UnicodeNormalization;

::pgrx::pg_module_magic!();

#[pg_extern(immutable, parallel_safe)]
fn slugify(input: &str) -> String {
    let s: String = input.nfkd().filter(|c| c.is_ascii()).collect();
    s.to_lowercase().split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).collect::<Vec<_>>().join("-")
}

#[cfg(any(test, feature = "pg_test"))]
#[pg_schema]
mod tests {
    use pgrx::prelude::*;

    #[pg_test]
    fn basic() {
        assert_eq!(crate::slugify("Hello, World!"), "hello-world");
    }
}

#[cfg(test)]
pub mod pg_test {
    pub fn setup(_options: Vec<&str>) {}
    pub fn postgresql_conf_options() -> Vec<&'static str> { vec![] }
}
