//! robots: three robot board games on the command line (RULES.md).
//!
//! - [`battle`]: Robots (part A), the programming battle on a hex board: the language, boards,
//!   match files, the pure engine, text views and the debugger's core.
//! - [`ricochet`]: Ricochet Robots and Ricochets (part B, C.2).
//! - [`micro`]: Micro Robots (part C.1).
//! - [`table`]: what the two token games share: players, rosters and seats, the stream a game
//!   draws its board from, and the end of a game.
//! - [`text`]: located diagnostics and the one module that names the YAML crate.
//!
//! The binary (`src/main.rs`, `src/cli/`) holds every front end: the command line, the
//! terminal screens and the prompts. Nothing in this library prints or reads files.

#![forbid(unsafe_code)]

pub mod battle;
pub mod micro;
pub mod ricochet;
pub mod table;
pub mod text;
