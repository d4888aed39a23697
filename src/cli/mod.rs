//! The front ends: the command line of the three games, the terminal screens and prompts.
//! Only this folder (and `main.rs`) prints, reads files or touches the terminal.

#[macro_use]
pub mod output;
pub mod battle;
pub mod evolve;
pub mod files;
pub mod flags;
pub mod game_flags;
pub mod hill;
pub mod hill_store;
pub mod manual;
pub mod memory;
pub mod micro;
pub mod picture;
pub mod play;
pub mod prompt;
pub mod record;
pub mod replay;
pub mod ricochet;
pub mod tournament;
pub mod tui;
pub mod viewer;
