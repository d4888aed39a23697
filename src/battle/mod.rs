//! Robots (RULES part A): the programming battle on a hex board.
//!
//! [`hex`] geometry, [`terrain`], the [`board`] and its file [`board_file`], the program
//! language [`lang`], [`match_file`], the pure [`engine`], text drawings in [`render`], SVG
//! pictures in [`svg`], self-contained [`replay`]s, the replay page's document in [`view`],
//! the [`debug`]ger's core, a game at the table ([`hot_seat`]), the [`bench`](mod@bench) workload and the [`shipped`] files.

pub mod bench;
pub mod board;
pub mod board_file;
pub mod debug;
pub mod engine;
pub mod evolve;
pub mod hex;
pub mod hot_seat;
pub mod lang;
pub mod match_file;
pub mod render;
pub mod replay;
pub mod report;
pub mod shipped;
pub mod svg;
pub mod terrain;
pub mod tournament;
pub mod view;
