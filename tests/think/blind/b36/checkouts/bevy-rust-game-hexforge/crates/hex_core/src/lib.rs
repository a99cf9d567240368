pub mod components;
pub mod resources;
pub mod systems;

mod plugin;
pub use plugin::HexCorePlugin;
