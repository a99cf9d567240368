use pgrx::prelude::*;

::pgrx::pg_module_magic!();

#[pg_extern(immutable, parallel_safe)]
fn semver_is_valid(v: &str) -> bool {
    semver::Version::parse(v).is_ok()
}

#[pg_extern(immutable, parallel_safe)]
fn semver_major(v: &str) -> Option<i64> {
    semver::Version::parse(v).ok().map(|x| x.major as i64)
}

#[cfg(any(test, feature = "pg_test"))]
#[pg_schema]
mod tests {
    use pgrx::prelude::*;

    #[pg_test]
    fn test_semver_is_valid() {
        assert!(crate::semver_is_valid("1.2.3"));
        assert!(!crate::semver_is_valid("1.2"));
    }

    #[pg_test]
    fn test_semver_major() {
        assert_eq!(Some(4), Spi::get_one::<i64>("SELECT semver_major('4.0.1-rc1')").unwrap());
    }
}

#[cfg(test)]
pub mod pg_test {
    pub fn setup(_options: Vec<&str>) {}
    pub fn postgresql_conf_options() -> Vec<&'static str> { vec![] }
}
