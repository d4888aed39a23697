//! The command handlers of the two other games, apart from the hex game's in `main.rs`.

pub mod memory;
pub mod micro;
pub mod ricochet;
