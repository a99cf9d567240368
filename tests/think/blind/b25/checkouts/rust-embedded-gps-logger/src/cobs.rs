//! COBS framing for the SD-card log records.

/// Encode `src` into `dst`, returning the number of bytes written.
pub fn encode(src: &[u8], dst: &mut [u8]) -> Option<usize> {
    let mut code_idx = 0;
    let mut code = 1u8;
    let mut o = 1;
    for &b in src {
        if b == 0 {
            *dst.get_mut(code_idx)? = code;
            code_idx = o;
            o += 1;
            code = 1;
        } else {
            *dst.get_mut(o)? = b;
            o += 1;
            code += 1;
        }
    }
    *dst.get_mut(code_idx)? = code;
    Some(o)
}
