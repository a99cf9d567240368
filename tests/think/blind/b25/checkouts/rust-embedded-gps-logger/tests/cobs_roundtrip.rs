use gps_logger::cobs::{decode, encode};

#[test]
fn roundtrip_with_zeros() {
    let src = [0x11, 0x00, 0x00, 0x22, 0x33, 0x00];
    let mut enc = [0u8; 16];
    let n = encode(&src, &mut enc).unwrap();
    let mut dec = [0u8; 16];
    let m = decode(&enc[..n], &mut dec).unwrap();
    assert_eq!(&dec[..m], &src);
}

#[test]
fn long_run_without_zero() {
    let src = [0xAAu8; 300];
    let mut enc = [0u8; 310];
    let n = encode(&src, &mut enc).unwrap();
    assert!(enc[..n].iter().all(|&b| b != 0));
}
