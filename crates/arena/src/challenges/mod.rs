//! Challenges' API and pages (docs/ARENA.md, "Challenges"): one's program — saved, or a
//! text sent with the challenge — against a program of its hill or a shipped one, unranked.
//! What is stored and how the workers play them is `worker/challenge.rs`, re-exported here.

pub mod api;
pub mod pages;
pub mod section;
#[cfg(test)]
pub(crate) mod tests;

pub use crate::worker::challenge::*;
