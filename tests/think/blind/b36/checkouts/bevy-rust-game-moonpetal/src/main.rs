use bevy::prelude::*;

mod components;
mod plugins;
mod systems;

fn main() {
    App::new()
        .add_plugins(DefaultPlugins)
        .add_plugins(plugins::GamePlugins)
        .run();
}
