//! Ricochet Robots and Ricochets (RULES part B, and C.2's transparent robot): boards from the
//! published quarters or custom files, positions, moves, an optimal solver, and games.

pub mod bench;
pub mod board;
pub mod fast;
pub mod game;
pub mod moves;
pub mod position;
pub mod reference;
pub mod solve;
