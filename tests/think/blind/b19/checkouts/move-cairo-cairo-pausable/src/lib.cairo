pub mod token;
pub mod interfaces;
