//! Two versions' texts compared line by line with the `similar` crate (Myers' algorithm):
//! a unified diff with 3 lines of context, and the same hunks line by line with their line
//! numbers for the page. A text is at most 64 KiB, but Myers' work grows with the product
//! of the lengths and the differences: past `TIMEOUT` the diff is coarser (whole blocks
//! removed and added), still a true diff.

use crate::api::bodies::{DiffLine, DiffView};
use similar::{Algorithm, ChangeTag, TextDiff};
use std::time::Duration;

/// The most time the comparison takes before it settles for a coarser diff.
pub const TIMEOUT: Duration = Duration::from_secs(2);

/// The lines of context around each change.
const CONTEXT: usize = 3;

/// Version `from` (text `old`) against version `to` (text `new`).
pub fn compare((from, old): (u32, &str), (to, new): (u32, &str)) -> DiffView {
    let diff = TextDiff::configure()
        .algorithm(Algorithm::Myers)
        .timeout(TIMEOUT)
        .diff_lines(old, new);
    let unified = diff
        .unified_diff()
        .context_radius(CONTEXT)
        .header(&format!("v{from}"), &format!("v{to}"))
        .to_string();
    let hunks = diff
        .grouped_ops(CONTEXT)
        .iter()
        .map(|group| {
            group
                .iter()
                .flat_map(|op| diff.iter_changes(op))
                .map(|change| DiffLine {
                    kind: match change.tag() {
                        ChangeTag::Equal => "context",
                        ChangeTag::Delete => "removed",
                        ChangeTag::Insert => "added",
                    }
                    .to_string(),
                    old: change.old_index().map(|i| i + 1),
                    new: change.new_index().map(|i| i + 1),
                    text: change.value().trim_end_matches(['\n', '\r']).to_string(),
                })
                .collect()
        })
        .collect();
    DiffView {
        from,
        to,
        unified,
        hunks,
    }
}

#[cfg(test)]
mod tests {
    use super::compare;

    #[test]
    fn a_changed_line_is_removed_then_added_with_its_numbers() {
        let d = compare((1, "a\nb\nc\n"), (2, "a\nB\nc\nd\n"));
        assert_eq!(
            d.unified,
            "--- v1\n+++ v2\n@@ -1,3 +1,4 @@\n a\n-b\n+B\n c\n+d\n"
        );
        let lines: Vec<(&str, Option<usize>, Option<usize>, &str)> = d.hunks[0]
            .iter()
            .map(|l| (l.kind.as_str(), l.old, l.new, l.text.as_str()))
            .collect();
        assert_eq!(
            lines,
            [
                ("context", Some(1), Some(1), "a"),
                ("removed", Some(2), None, "b"),
                ("added", None, Some(2), "B"),
                ("context", Some(3), Some(3), "c"),
                ("added", None, Some(4), "d"),
            ]
        );
    }

    #[test]
    fn the_same_text_has_no_hunk() {
        let d = compare((3, "x\n"), (3, "x\n"));
        assert!(d.hunks.is_empty());
        assert_eq!(d.unified, "");
    }
}
