//! The tests (RULES A.9): compiled once a match and asked in a turn, the tree walk behind
//! them, and the counts of terrain in rings they read.

pub(crate) mod areas;
pub(crate) mod ask;
pub(crate) mod compiled;
pub(crate) mod near;
pub(crate) mod query;
pub(crate) mod sight;
pub(crate) mod terrain;
