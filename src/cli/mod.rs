//! The front ends: the command line of the three games, the terminal screens and prompts.
//! Only this folder (and `main.rs`) prints, reads files or touches the terminal.

#[macro_use]
pub mod io;
pub mod arena;
pub mod args;
pub mod battle;
pub mod check;
pub mod compare;
pub mod lsp;
pub mod micro;
pub mod picture;
pub mod play;
pub mod record;
pub mod replay;
pub mod ricochet;
pub mod serve;
pub mod teams;
pub mod tui;
pub mod viewer;
