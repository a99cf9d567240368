use pyo3::prelude::*;
use pyo3::types::PyBytes;

#[pyfunction]
fn digest<'py>(py: Python<'py>, data: &[u8]) -> Bound<'py, PyBytes> {
    let h = py.allow_threads(|| blake3::hash(data));
    PyBytes::new_bound(py, h.as_bytes())
}

#[pyfunction]
fn hexdigest(py: Python<'_>, data: &[u8]) -> String {
    py.allow_threads(|| blake3::hash(data)).to_hex().to_string()
}

#[pymodule]
fn _blake3lite(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(digest, m)?)?;
    m.add_function(wrap_pyfunction!(hexdigest, m)?)?;
    Ok(())
}
