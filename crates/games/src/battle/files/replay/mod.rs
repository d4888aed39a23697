//! Self-contained replays (docs/FORMATS.md, "Replays"): JSON Lines, so a replay is written
//! as the match is played and read back one line at a time, in flat memory however long the
//! match. Line 1 is the [`Header`]: everything the match starts from (the board's contents,
//! every program's text, rules, scenario, seed) and how it started (the first team, the
//! placements). Then one line per robot turn: the array of its events, as in
//! [`crate::battle::show::report::EventDoc`]. The last line is the [`ResultLine`].
//!
//! This module makes and reads the lines as text; the command-line layer does the files.
//! Reading a replay plays its setup again ([`Check`]) and compares every turn with the line
//! that records it, so a replay that disagrees with this engine is reported at the turn
//! where it does, never shown as if it were true.

mod doc;
mod read;

pub use doc::*;
pub use read::{Check, Disagreement, HeaderError, parse_header, setup_of};

#[cfg(test)]
mod tests;
