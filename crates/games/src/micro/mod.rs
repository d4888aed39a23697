//! Micro Robots (RULES part C.1): tile boards, an optimal solver, the analysis of every
//! arrangement, and games with the announcement rules.

pub mod analyse;
pub mod answer;
pub mod board;
pub mod file;
pub mod game;
pub mod record;
pub mod reference;
pub mod report;
pub mod shipped;
pub mod solve;
pub mod svg;

pub use board::{Arrangement, Board, Cell, Face};
pub use file::MicroFile;
