#![no_std]
#![no_main]

#[cfg(test)]
#[embedded_test::tests]
mod tests {
    #[init]
    fn init() -> stm32_sensor::Board {
        stm32_sensor::Board::take()
    }

    #[test]
    fn bme280_reads_plausible_temperature(mut board: stm32_sensor::Board) {
        let t = board.bme280.read_temperature().unwrap();
        assert!((-40.0..85.0).contains(&t));
    }
}
