//! Robots (RULES part A): the programming battle on a hex board, folder by stage.
//!
//! The ground: [`hex`] geometry, [`terrain`] and the [`board`]; the program language
//! ([`lang`]). Then the pipeline: [`files`] read boards, matches and replays (and the files
//! shipped in the binary) into checked setups; the pure [`engine`] plays them; [`show`]
//! turns states and events into text, SVG pictures, JSON documents and the replay page's
//! document; [`live`] drives a match a turn at a time for a person (the debugger's core, a
//! game at the table); [`compare`] plays programs against each other (duels, tournaments,
//! hills, the evolver, the benchmark's workload).

pub mod board;
pub mod compare;
pub mod engine;
pub mod files;
pub mod hex;
pub mod lang;
pub mod live;
pub mod show;
pub mod terrain;
