use macropad::debounce::Debouncer;

#[test]
fn press_registers_after_threshold() {
    let mut d = Debouncer::<2>::new();
    for _ in 0..4 {
        assert!(d.update([true, false]).is_empty());
    }
    assert_eq!(d.update([true, false]).as_slice(), &[(0, true)]);
}

#[test]
fn single_glitch_is_ignored() {
    let mut d = Debouncer::<1>::new();
    d.update([true]);
    assert!(d.update([false]).is_empty());
}

#[test]
fn release_registers_immediately() {
    let mut d = Debouncer::<1>::new();
    for _ in 0..5 { d.update([true]); }
    assert_eq!(d.update([false]).as_slice(), &[(0, false)]);
}
