use wasm_bindgen::prelude::*;

mod convert;
pub use convert::{hsl_to_rgb, rgb_to_hsl};

#[wasm_bindgen]
pub fn grayscale(pixels: &mut [u8]) {
    for px in pixels.chunks_exact_mut(4) {
        let y = (0.2126 * px[0] as f32 + 0.7152 * px[1] as f32 + 0.0722 * px[2] as f32) as u8;
        px[0] = y; px[1] = y; px[2] = y;
    }
}

#[wasm_bindgen]
pub fn invert(pixels: &mut [u8]) {
    for px in pixels.chunks_exact_mut(4) {
        px[0] = 255 - px[0]; px[1] = 255 - px[1]; px[2] = 255 - px[2];
    }
}
