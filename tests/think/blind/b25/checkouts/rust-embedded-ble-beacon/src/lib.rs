#![no_std]

pub mod adv;
