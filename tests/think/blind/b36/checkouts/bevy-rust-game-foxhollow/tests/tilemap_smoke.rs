use bevy::prelude::*;
use foxhollow::MapPlugin;

#[test]
fn map_loads_with_minimal_plugins() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, AssetPlugin::default(), MapPlugin));
    app.update();
}
