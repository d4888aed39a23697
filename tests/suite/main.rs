//! The integration tests, one test binary: each module was once its own `tests/*.rs` file;
//! `support` holds what they share (paths, loading files, running the binary, snapshots).

// Tests may unwrap: a failed unwrap is a failed test. Clippy's `allow-unwrap-in-tests`
// covers `#[test]` functions only, not the helpers beside them.
#![allow(clippy::unwrap_used)]

#[macro_use]
mod support;

mod arena;
mod arena_challenge;
mod arena_event;
mod arena_http;
mod arena_tls;
mod boards;
mod cli;
mod conditions;
mod debugger;
mod docs;
mod evolve;
mod first_steps;
mod generators;
mod hill;
mod hostile_battle;
mod hostile_files;
mod hostile_games;
mod hostile_round_two;
mod layout;
mod lints;
mod lsp;
mod micro;
mod no_panic;
mod parser;
mod pictures;
mod play;
mod records;
mod replays;
mod ricochet;
mod ricochet_analysis;
mod ricochet_play;
mod ricochets_board;
mod scenarios;
mod terminal;
mod ti57;
mod tour;
mod tournament;
mod tournaments;
mod viewer;
mod viewer_bytes;
