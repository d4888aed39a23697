//! Shards (docs/SCALE.md): the parts of a sharded tournament read from their files and
//! merged (`robots_games::battle::compare::tournament::parts` checks each line); every part's lines
//! bounded, the whole of each part within a budget.

use crate::cli::io::output::Failure;
use crate::cli::replay::Lines;
use robots_games::battle::compare::tournament::parts::{
    MAX_HEADER_BYTES, MAX_LINE_BYTES, Merge, Merged, PART_BUDGET, PartError,
};
use std::path::PathBuf;

/// The tournament and every result of its parts, in the unsharded order, with the shards
/// that are missing or cut short.
pub fn merge(parts: &[PathBuf]) -> Result<Merged, Failure> {
    let mut merge = Merge::new();
    for path in parts {
        let mut lines = Lines::open(path, PART_BUDGET, "a tournament part")?;
        let shown = lines.shown().to_string();
        let err = |number: u64, m: PartError| Failure::Bad(format!("{shown}:{number}: error: {m}"));
        let first = lines
            .next(MAX_HEADER_BYTES)?
            .ok_or_else(|| Failure::Bad(format!("{shown}:1: error: the part is empty")))?;
        merge
            .header(&shown, &first)
            .map_err(|m| err(lines.number(), m))?;
        while let Some(text) = lines.next(MAX_LINE_BYTES)? {
            merge.line(&text).map_err(|m| err(lines.number(), m))?;
        }
    }
    merge.finish().map_err(|e| Failure::Bad(e.to_string()))
}
