#![cfg_attr(not(test), no_std)]

pub mod protocol;
pub mod registers;
