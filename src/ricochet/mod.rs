//! Ricochet Robots and Ricochets (RULES part B, and C.2's transparent robot): boards from the
//! published quarters or custom files, positions, moves, an optimal solver, and games.
//!
//! Dependencies run one way: [`board`] and [`rules`] at the bottom; [`moves`] on the board;
//! [`position`] on both; the searches ([`astar`] and [`parallel_bfs`] over [`standard`]'s
//! packed states, [`dijkstra`] for the rest, sharing [`bucket`] and [`solution`]) on positions;
//! [`solve`] dispatches to them and checks answers; [`game`] plays, its [`bidding`] decided
//! as data (bids with their times). [`quarters`], [`custom`] and [`files`] read boards and
//! positions (`board` and `position` re-export their entry points under the old paths);
//! [`generate`] draws random Ricochets boards, each mission from the bases solved;
//! [`svg`] draws boards, positions and solutions as pictures, [`drawing`] as text.

pub mod all;
pub mod astar;
pub mod bench;
pub mod bidding;
pub mod board;
pub mod bound;
pub mod bucket;
pub mod custom;
pub mod dijkstra;
pub mod drawing;
pub mod files;
pub mod game;
pub mod game_id;
pub mod generate;
pub mod hardest;
pub mod moves;
pub mod parallel_bfs;
pub mod position;
pub mod quarters;
pub mod record;
pub mod reference;
pub mod rules;
pub mod solution;
pub mod solve;
pub mod standard;
pub mod states;
pub mod svg;
