//! The command line: the clap types of every command and flag ([`flags`] for the hex game
//! and the shared ones, [`game_flags`] for `ricochet …` and `micro …`), and the shell
//! completions and manual page generated from them ([`manual`]).

pub mod arena_flags;
pub mod flags;
pub mod game_flags;
pub mod manual;
pub mod shared_flags;
