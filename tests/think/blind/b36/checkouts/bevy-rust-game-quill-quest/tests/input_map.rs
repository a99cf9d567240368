use quill_quest::systems::input::{default_input_map, Action};

#[test]
fn every_action_is_bound() {
    let map = default_input_map();
    for a in [Action::Move, Action::Jump, Action::Write, Action::Pause] {
        assert!(!map.get(&a).unwrap().is_empty(), "{a:?} unbound");
    }
}
