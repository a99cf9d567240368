use pgrx::prelude::*;

#[pg_extern(immutable, parallel_safe)]
fn quantile_cont(values: Vec<Option<f64>>, q: f64) -> Option<f64> {
    let mut v: Vec<f64> = values.into_iter().flatten().collect();
    if v.is_empty() { return None; }
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let pos = q * (v.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    Some(v[lo] + (v[hi] - v[lo]) * (pos - lo as f64))
}

#[cfg(any(test, feature = "pg_test"))]
#[pg_schema]
mod tests {
    use pgrx::prelude::*;

    #[pg_test]
    fn median_of_odd() {
        let r = Spi::get_one::<f64>("SELECT quantile_cont(ARRAY[3.0,1.0,2.0], 0.5)").unwrap();
        assert_eq!(r, Some(2.0));
    }
}
