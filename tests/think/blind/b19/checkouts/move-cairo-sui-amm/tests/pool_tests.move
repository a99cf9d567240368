#[test_only]
module amm::pool_tests {
    use sui::test_scenario as ts;
    use sui::coin;
    use amm::pool;

    public struct USDC has drop {}
    public struct WETH has drop {}

    #[test]
    fun swap_constant_product() {
        let mut sc = ts::begin(@0xA);
        let mut p = pool::new_for_testing<USDC, WETH>(1_000_000, 500, sc.ctx());
        let out = pool::swap_a_for_b(&mut p, coin::mint_for_testing<USDC>(10_000, sc.ctx()), 0, sc.ctx());
        assert!(out.value() == 4, 0);
        pool::destroy_for_testing(p);
        coin::burn_for_testing(out);
        sc.end();
    }
}
