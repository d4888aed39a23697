//! The viewer's documents of stored matches, kept in memory once played: a stored match never
//! changes, so its replay is played once and served again from here (issue 50: the replay route
//! played the whole match again on every request). Bounded by bytes (the documents' JSON
//! size), the least recently used left out first. What is kept is the whole document; who may
//! see which program is decided at every request (`views::replay`), never here.

use crate::db::ids::MatchId;
use robots_games::battle::show::view::ViewDoc;
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Arc, Mutex, PoisonError};

/// The bytes of documents kept by default (their JSON size).
pub const DEFAULT_BYTES: usize = 64 << 20;

/// What a document was played from, besides its match: the seed and both programs' texts. A
/// text erased or changed since (an account deleted) no longer finds the old document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played(u64);

impl Played {
    pub fn of(seed: u64, green: &str, violet: &str) -> Played {
        let mut h = DefaultHasher::new();
        (seed, green, violet).hash(&mut h);
        Played(h.finish())
    }
}

struct Entry {
    played: Played,
    doc: Arc<ViewDoc>,
    bytes: usize,
    used: u64,
}

#[derive(Default)]
struct Kept {
    entries: HashMap<MatchId, Entry>,
    bytes: usize,
    clock: u64,
}

/// The kept documents.
pub struct Replays {
    budget: usize,
    kept: Mutex<Kept>,
}

impl Default for Replays {
    fn default() -> Replays {
        Replays::new(DEFAULT_BYTES)
    }
}

impl Replays {
    /// At most `budget` bytes of documents (their JSON size); one over a quarter of it is
    /// served but not kept.
    pub fn new(budget: usize) -> Replays {
        Replays {
            budget,
            kept: Mutex::new(Kept::default()),
        }
    }

    /// The document of match `id` played as `played`, if kept.
    pub fn get(&self, id: MatchId, played: Played) -> Option<Arc<ViewDoc>> {
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.clock += 1;
        let now = kept.clock;
        let entry = kept.entries.get_mut(&id).filter(|e| e.played == played)?;
        entry.used = now;
        Some(Arc::clone(&entry.doc))
    }

    /// Keeps `doc`, `bytes` long, leaving out the least recently used documents to stay
    /// within the budget.
    pub fn put(&self, id: MatchId, played: Played, doc: Arc<ViewDoc>, bytes: usize) {
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
    use robots_games::battle::engine::{MatchSetup, RobotSetup, Rules, Scenario, TeamSetup};
    use robots_games::battle::files::{board_file, shipped};
    use robots_games::battle::lang::parse_program;
    use robots_games::battle::show::view::{MAX_DOC_BYTES, MAX_TURNS, view_doc};
    use robots_games::battle::terrain::TeamColour;

    fn doc(seed: u64) -> Arc<ViewDoc> {
        let board = board_file::parse_board("classic", shipped::BOARDS[0].1).unwrap();
        let text = shipped::program("hunter").unwrap();
        let program = Arc::new(parse_program("hunter", text, 15).unwrap());
        let team = |colour| TeamSetup {
            colour,
            robots: vec![RobotSetup {
                program: Arc::clone(&program),
                origin: "hunter".into(),
                source: text.into(),
                at: None,
                facing: None,
            }],
        };
        let setup = MatchSetup {
            name: "kept".into(),
            board: Arc::new(board),
            scenario: Scenario::Elimination,
            rules: Rules::default(),
            seed,
            teams: vec![team(TeamColour::Green), team(TeamColour::Violet)],
            signals: Vec::new(),
        };
        Arc::new(view_doc(&setup, MAX_TURNS, MAX_DOC_BYTES).unwrap())
    }

    #[test]
    fn a_kept_document_is_found_only_as_it_was_played() {
        let replays = Replays::new(1000);
        let (id, played) = (MatchId(7), Played::of(1, "a", "b"));
        assert!(replays.get(id, played).is_none());
        replays.put(id, played, doc(1), 100);
        assert_eq!(replays.get(id, played).unwrap().seed, 1);
        // Another text (an account deleted, its texts erased) or seed: not this document.
        assert!(replays.get(id, Played::of(1, "a", "")).is_none());
        assert!(replays.get(id, Played::of(2, "a", "b")).is_none());
        assert!(replays.get(MatchId(8), played).is_none());
    }

    #[test]
    fn the_budget_leaves_out_the_least_recently_used() {
        let replays = Replays::new(1000);
        let played = Played::of(1, "a", "b");
        let d = doc(1);
        for i in 1..=4 {
            replays.put(MatchId(i), played, Arc::clone(&d), 250);
        }
        assert_eq!(replays.size(), (4, 1000));
        // Match 1 used again: match 2 is now the least recently used.
        assert!(replays.get(MatchId(1), played).is_some());
        replays.put(MatchId(5), played, Arc::clone(&d), 250);
        assert_eq!(replays.size(), (4, 1000));
        assert!(replays.get(MatchId(2), played).is_none());
        for i in [1, 3, 4, 5] {
            assert!(replays.get(MatchId(i), played).is_some(), "match {i}");
        }
        // Over a quarter of the budget: served by the caller, never kept.
        replays.put(MatchId(6), played, d, 251);
        assert!(replays.get(MatchId(6), played).is_none());
        assert_eq!(replays.size(), (4, 1000));
    }
}
