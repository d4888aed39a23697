//! robots: three robot board games on the command line (RULES.md).
//!
//! - Robots (part A), the programming battle on a hex board: [`lang`] (programs), [`board`]
//!   and [`board_file`], [`match_file`], the pure [`engine`], [`render`], the [`debug`]ger's
//!   core and its terminal front end [`tui`].
//! - Ricochet Robots and Ricochets (part B, C.2): [`ricochet`].
//! - Micro Robots (part C.1): [`micro`].
//!
//! Shared: [`diagnostic`] (located errors), [`yaml`] (the only module naming the YAML crate),
//! [`shipped`] (files embedded in the binary), [`table`] (the end of a token game), [`bench`](mod@bench).

pub mod bench;
pub mod board;
pub mod board_file;
pub mod debug;
pub mod diagnostic;
pub mod engine;
pub mod hex;
pub mod lang;
pub mod match_file;
pub mod micro;
pub mod render;
pub mod ricochet;
pub mod shipped;
pub mod table;
pub mod terrain;
pub mod tui;
pub mod yaml;
