//! Ricochet Robots and Ricochets (RULES part B, and C.2's transparent robot): boards from the
//! published quarters or custom files, positions, moves, an optimal solver, and games.

pub mod astar;
pub mod bench;
pub mod board;
pub mod bucket;
pub mod custom;
pub mod dijkstra;
pub mod files;
pub mod game;
pub mod moves;
pub mod parallel_bfs;
pub mod position;
pub mod quarters;
pub mod reference;
pub mod rules;
pub mod solution;
pub mod solve;
pub mod standard;
