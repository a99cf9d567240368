//! Route planning over great-circle legs.

mod geo;
mod route;

/// Re-exports for downstream crates.

pub mod prelude;

pub use geo::Point;
pub use route::{Leg, Plan, Planner};
