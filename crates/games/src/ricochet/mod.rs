//! Ricochet Robots and Ricochets (RULES part B, and C.2's transparent robot): boards from the
//! published quarters or custom files, positions, moves, an optimal solver, and games.
//!
//! The folders are the pipeline: [`files`] reads boards (the published quarters, custom
//! boards), positions and game ids; [`board`], [`rules`], [`moves`] and [`position`] say what
//! a position is and how its robots slide; [`solve`] finds the fewest moves and checks
//! answers; [`analysis`] goes further (every optimal solution, the hardest starts); [`play`]
//! plays games, its bidding decided as data; [`report`] writes the JSON documents of answers
//! and a game's record; [`draw`] shows boards, positions and solutions as text and pictures.
//! Beside them, [`generate`] draws random Ricochets boards and [`bench`] holds the
//! benchmark's positions.
//!
//! Dependencies run one way: [`board`] and [`rules`] at the bottom; [`moves`] on the board;
//! [`position`] on both; the searches on positions; play on the searches.

pub mod analysis;
pub mod bench;
pub mod board;
pub mod draw;
pub mod files;
pub mod generate;
pub mod moves;
pub mod play;
pub mod position;
pub mod report;
pub mod rules;
pub mod solve;

// The paths the binary's shared parts (checking files, pictures) name.
pub use draw::svg;
pub use files::quarters;
