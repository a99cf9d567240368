module amm::pool {
    use sui::balance::{Self, Balance, Supply};
    use sui::coin::{Self, Coin};

    const EZeroInput: u64 = 0;
    const ESlippage: u64 = 1;

    public struct LP<phantom A, phantom B> has drop {}

    public struct Pool<phantom A, phantom B> has key {
        id: UID,
        reserve_a: Balance<A>,
        reserve_b: Balance<B>,
        lp_supply: Supply<LP<A, B>>,
    }

    public fun swap_a_for_b<A, B>(pool: &mut Pool<A, B>, input: Coin<A>, min_out: u64, ctx: &mut TxContext): Coin<B> {
        let amount_in = input.value();
        assert!(amount_in > 0, EZeroInput);
        let (ra, rb) = (pool.reserve_a.value(), pool.reserve_b.value());
        let out = (((amount_in as u128) * (rb as u128)) / ((ra as u128) + (amount_in as u128)) as u64);
        assert!(out >= min_out, ESlippage);
        pool.reserve_a.join(input.into_balance());
        coin::take(&mut pool.reserve_b, out, ctx)
    }
}
