#![cfg_attr(not(test), no_std)]

pub mod idmask;
pub mod rate;
