use bevy::prelude::*;
use hex_core::resources::{Score, MatchEvents};
use hex_core::systems::score::{award_matches, MatchCleared};
use hex_core::HexCorePlugin;

fn app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, HexCorePlugin));
    app
}

#[test]
fn single_match_awards_base_points() {
    let mut app = app();
    app.world_mut().send_event(MatchCleared { tiles: 3 });
    app.update();
    assert_eq!(app.world().resource::<Score>().0, 30);
}

#[test]
fn bigger_matches_award_more() {
    let mut app = app();
    app.world_mut().send_event(MatchCleared { tiles: 5 });
    app.update();
    assert_eq!(app.world().resource::<Score>().0, 60);
}
