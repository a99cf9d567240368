pub mod make_offer;
pub use make_offer::*;

pub mod take_offer;
pub use take_offer::*;

pub mod shared;
pub use shared::*;
