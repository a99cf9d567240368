use bevy::app::PluginGroupBuilder;
use bevy::prelude::*;

mod garden;
mod ui;

pub struct GamePlugins;

impl PluginGroup for GamePlugins {
    fn build(self) -> PluginGroupBuilder {
        PluginGroupBuilder::start::<Self>()
            .add(garden::GardenPlugin)
            .add(ui::UiPlugin)
    }
}
