//! The kept documents of stored matches (`replays/`) most recently used, in memory: a hit
//! reads neither the database nor the document (the bytes are shared, never copied). Bounded
//! by the bytes of gzip kept, the least recently used left out first. What is kept holds no
//! program's steps or tests; who may see which program is decided at every request
//! (`views::replay`), never here.

use crate::db::ids::MatchId;
use crate::replays::Kept;
pub use crate::replays::Played;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

/// The bytes of documents kept by default (their gzip).
pub const DEFAULT_BYTES: usize = 64 << 20;

struct Entry {
    played: Played,
    doc: Arc<Kept>,
    bytes: usize,
    used: u64,
}

#[derive(Default)]
struct Lru {
    entries: HashMap<MatchId, Entry>,
    bytes: usize,
    clock: u64,
}

/// The kept documents.
pub struct Replays {
    budget: usize,
    kept: Mutex<Lru>,
}

impl Default for Replays {
    fn default() -> Replays {
        Replays::new(DEFAULT_BYTES)
    }
}

impl Replays {
    /// At most `budget` bytes of documents (their gzip); one over a quarter of it is served
    /// but not kept.
    pub fn new(budget: usize) -> Replays {
        Replays {
            budget,
            kept: Mutex::new(Lru::default()),
        }
    }

    /// The document of match `id` played as `played`, if kept.
    pub fn get(&self, id: MatchId, played: Played) -> Option<Arc<Kept>> {
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.clock += 1;
        let now = kept.clock;
        let entry = kept.entries.get_mut(&id).filter(|e| e.played == played)?;
        entry.used = now;
        Some(Arc::clone(&entry.doc))
    }

    /// Keeps `doc`, leaving out the least recently used documents to stay within the budget.
    pub fn put(&self, id: MatchId, doc: Arc<Kept>) {
        let (played, bytes) = (doc.played, doc.gz.len());
        if bytes > self.budget / 4 {
            return;
        }
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(old) = kept.entries.remove(&id) {
            kept.bytes -= old.bytes;
        }
        while kept.bytes + bytes > self.budget {
            let Some(oldest) = kept
                .entries
                .iter()
                .min_by_key(|(_, e)| e.used)
                .map(|(k, _)| *k)
            else {
                break;
            };
            if let Some(e) = kept.entries.remove(&oldest) {
                kept.bytes -= e.bytes;
            }
        }
        kept.clock += 1;
        let used = kept.clock;
        kept.bytes += bytes;
        kept.entries.insert(
            id,
            Entry {
                played,
                doc,
                bytes,
                used,
            },
        );
    }

    /// The documents kept and their bytes.
    pub fn size(&self) -> (usize, usize) {
        let kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        (kept.entries.len(), kept.bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;

    fn doc(played: Played, bytes: usize) -> Arc<Kept> {
        Arc::new(Kept {
            played,
            gz: Bytes::from(vec![0; bytes]),
            robots: (0, 0),
            size: bytes,
        })
    }

    #[test]
    fn a_kept_document_is_found_only_as_it_was_played() {
        let replays = Replays::new(1000);
        let (id, played) = (MatchId(7), Played::of(1, "a", "b"));
        assert!(replays.get(id, played).is_none());
        replays.put(id, doc(played, 100));
        assert_eq!(replays.get(id, played).unwrap().gz.len(), 100);
        // Another text (an account deleted, its texts erased) or seed: not this document.
        assert!(replays.get(id, Played::of(1, "a", "")).is_none());
        assert!(replays.get(id, Played::of(2, "a", "b")).is_none());
        assert!(replays.get(MatchId(8), played).is_none());
    }

    #[test]
    fn the_budget_leaves_out_the_least_recently_used() {
        let replays = Replays::new(1000);
        let played = Played::of(1, "a", "b");
        for i in 1..=4 {
            replays.put(MatchId(i), doc(played, 250));
        }
        assert_eq!(replays.size(), (4, 1000));
        // Match 1 used again: match 2 is now the least recently used.
        assert!(replays.get(MatchId(1), played).is_some());
        replays.put(MatchId(5), doc(played, 250));
        assert_eq!(replays.size(), (4, 1000));
        assert!(replays.get(MatchId(2), played).is_none());
        for i in [1, 3, 4, 5] {
            assert!(replays.get(MatchId(i), played).is_some(), "match {i}");
        }
        // Over a quarter of the budget: served by the caller, never kept.
        replays.put(MatchId(6), doc(played, 251));
        assert!(replays.get(MatchId(6), played).is_none());
        assert_eq!(replays.size(), (4, 1000));
    }
}
