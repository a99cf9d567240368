#![no_std]
#![no_main]

use ble_beacon as _;
use defmt_rtt as _;
use panic_probe as _;

#[defmt_test::tests]
mod tests {
    use ble_beacon::adv::eddystone_url;

    #[test]
    fn url_payload_fits_31_bytes() {
        let p = eddystone_url("https://example.org/b").unwrap();
        defmt::assert!(p.len() <= 31);
    }
}
