//! robots: programmed robots on a hex board (RULES part A), and later Ricochet and Micro Robots.

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
