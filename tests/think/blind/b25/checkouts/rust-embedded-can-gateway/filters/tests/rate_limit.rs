use filters::rate::RateLimiter;

#[test]
fn burst_then_throttle() {
    let mut rl = RateLimiter::new(3, 1000);
    assert!(rl.allow(0x123, 0));
    assert!(rl.allow(0x123, 1));
    assert!(rl.allow(0x123, 2));
    assert!(!rl.allow(0x123, 3));
}

#[test]
fn window_resets() {
    let mut rl = RateLimiter::new(1, 1000);
    assert!(rl.allow(0x7DF, 0));
    assert!(rl.allow(0x7DF, 1000));
}
