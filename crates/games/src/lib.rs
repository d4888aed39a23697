//! robots-games: the rules of three robot board games (RULES.md), the library of the
//! `robots` workspace.
//!
//! - [`battle`]: Robots (part A), the programming battle on a hex board: the language, boards,
//!   match files, the pure engine, text views and the debugger's core.
//! - [`ricochet`]: Ricochet Robots and Ricochets (part B, C.2).
//! - [`micro`]: Micro Robots (part C.1).
//! - [`table`]: what the two token games share: players, rosters and seats, the stream a game
//!   draws its board from, and the end of a game.
//! - [`text`]: located diagnostics and the one module that names the YAML crate.
//!
//! The `robots` binary (the workspace's root package: `src/main.rs`, `src/cli/`) holds every
//! front end: the command line, the terminal screens, the prompts and the server. Nothing in
//! this library prints or reads files, and it needs no operating system: it builds for
//! `wasm32-unknown-unknown` (`scripts/wasm-check`).
//!
//! Features: `parallel` (the default) runs tournaments, the big Ricochet search and the
//! hardest positions' search on rayon's threads; without it they run on the calling thread,
//! with the same results.

#![forbid(unsafe_code)]

pub mod battle;
pub mod micro;
mod parallel;
pub mod ricochet;
pub mod table;
pub mod text;
