pub mod gbuffer;
pub mod lighting;
pub mod postfx;
pub mod shaders;
