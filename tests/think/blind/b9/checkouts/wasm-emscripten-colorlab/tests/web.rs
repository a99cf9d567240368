use colorlab::{grayscale, invert};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn grayscale_keeps_alpha() {
    let mut px = [200u8, 100, 50, 77];
    grayscale(&mut px);
    assert_eq!(px[0], px[1]);
    assert_eq!(px[3], 77);
}

#[wasm_bindgen_test]
fn invert_twice_is_identity() {
    let mut px = [1u8, 2, 3, 4, 250, 251, 252, 253];
    let orig = px;
    invert(&mut px);
    invert(&mut px);
    assert_eq!(px, orig);
}
