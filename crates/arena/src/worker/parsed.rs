//! Programs and boards parsed once and kept (issue 50). A placement step, a challenge, an
//! event's piece and every replay made again start from the texts in the database; parsing
//! them again each time took about a sixth of the server's time under `scripts/load`. A text
//! always parses to the same value, so that value is kept, keyed by the whole text (with the
//! name and keywords it was parsed with), in a table bounded in entries and in text bytes, the
//! least recently used put out first. A text that does not parse is not kept. The table is
//! looked up only by a whole text, so it gives no one a text they do not already hold; a text
//! erased from the database (its account deleted) stays in this process's memory until it is
//! put out or the process ends, and is never written anywhere.

use robots_games::battle::board::Board;
use robots_games::battle::files::{board_file, match_file};
use robots_games::battle::lang::ast::{Keywords, Program};
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex, PoisonError};

/// The most programs kept, and the most bytes of their texts.
const PROGRAMS: (usize, usize) = (512, 4 << 20);
/// The most boards kept, and the most bytes of their texts.
const BOARDS: (usize, usize) = (32, 4 << 20);

/// A table of at most `max.0` values whose texts add up to at most `max.1` bytes.
pub(crate) struct Kept<K, V> {
    max: (usize, usize),
    /// Each key's value, when it was last used and its text's bytes.
    entries: HashMap<K, (V, u64, usize)>,
    bytes: usize,
    tick: u64,
}

impl<K: Hash + Eq + Clone, V: Clone> Kept<K, V> {
    pub(crate) fn new(max: (usize, usize)) -> Kept<K, V> {
        Kept {
            max,
            entries: HashMap::new(),
            bytes: 0,
            tick: 0,
        }
    }

    /// The value kept for `key`, else the one `make` gives, kept when it is `Some` and its
    /// text (`size` bytes) is within the bound at all.
    pub(crate) fn get_or(
        &mut self,
        key: &K,
        size: usize,
        make: impl FnOnce() -> Option<V>,
    ) -> Option<V> {
        self.tick += 1;
        if let Some((value, used, _)) = self.entries.get_mut(key) {
            *used = self.tick;
            return Some(value.clone());
        }
        let value = make()?;
        if size <= self.max.1 {
            while self.entries.len() >= self.max.0 || self.bytes + size > self.max.1 {
                self.put_out_oldest();
            }
            self.entries
                .insert(key.clone(), (value.clone(), self.tick, size));
            self.bytes += size;
        }
        Some(value)
    }

    /// Puts out the least recently used entry (each use has its own tick: one is oldest).
    fn put_out_oldest(&mut self) {
        let oldest = self
            .entries
            .iter()
            .min_by_key(|(_, (_, used, _))| *used)
            .map(|(k, _)| k.clone());
        if let Some((_, _, size)) = oldest.and_then(|k| self.entries.remove(&k)) {
            self.bytes -= size;
        }
    }

    #[cfg(test)]
    pub(crate) fn keys(&self) -> Vec<K> {
        self.entries.keys().cloned().collect()
    }
}

/// Programs by keywords, name and text.
type Programs = Kept<(Keywords, String, String), Arc<Program>>;
/// Boards by file name and text.
type Boards = Kept<(String, String), Arc<Board>>;

static KEPT_PROGRAMS: Mutex<Option<Programs>> = Mutex::new(None);
static KEPT_BOARDS: Mutex<Option<Boards>> = Mutex::new(None);

/// The program `source` (named `name`, under `keywords`), parsed once; `None` when it does not
/// parse.
pub fn program(name: &str, source: &str, keywords: Keywords) -> Option<Arc<Program>> {
    let key = (keywords, name.to_string(), source.to_string());
    let mut kept = KEPT_PROGRAMS.lock().unwrap_or_else(PoisonError::into_inner);
    kept.get_or_insert_with(|| Kept::new(PROGRAMS))
        .get_or(&key, name.len() + source.len(), || {
            match_file::parse_program_file_in(name, source, keywords)
                .ok()
                .map(Arc::new)
        })
}

/// The board `text` (its file named `name`), parsed once; `None` when it does not parse.
pub fn board(name: &str, text: &str) -> Option<Arc<Board>> {
    let key = (name.to_string(), text.to_string());
    let mut kept = KEPT_BOARDS.lock().unwrap_or_else(PoisonError::into_inner);
    kept.get_or_insert_with(|| Kept::new(BOARDS))
        .get_or(&key, name.len() + text.len(), || {
            board_file::parse_board(name, text).ok().map(Arc::new)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_recently_used_goes_first_and_the_bounds_hold() {
        let mut kept: Kept<u32, u32> = Kept::new((3, 10));
        for k in [1, 2, 3] {
            assert_eq!(kept.get_or(&k, 2, || Some(k * 10)), Some(k * 10));
        }
        // 1 used again: 2 is now the oldest and goes when 4 comes.
        assert_eq!(
            kept.get_or(&1, 2, || Some(99)),
            Some(10),
            "kept, not made again"
        );
        kept.get_or(&4, 2, || Some(40));
        let mut keys = kept.keys();
        keys.sort_unstable();
        assert_eq!(keys, [1, 3, 4]);
        // 7 bytes more: over 10 bytes with two of the others, so two go (3 then 1).
        kept.get_or(&5, 7, || Some(50));
        let mut keys = kept.keys();
        keys.sort_unstable();
        assert_eq!(keys, [4, 5]);
        assert_eq!(kept.bytes, 9);
        // Over the byte bound alone: given, not kept; a failure is not kept either.
        assert_eq!(kept.get_or(&6, 11, || Some(60)), Some(60));
        assert_eq!(kept.get_or(&7, 1, || None), None);
        let mut keys = kept.keys();
        keys.sort_unstable();
        assert_eq!(keys, [4, 5]);
    }

    #[test]
    fn a_kept_program_is_the_one_parsed_and_a_bad_text_is_refused() {
        let text = robots_games::battle::files::shipped::program("berserker").unwrap();
        let first = program("p", text, Keywords::Plain).expect("parses");
        let again = program("p", text, Keywords::Plain).expect("parses");
        assert!(Arc::ptr_eq(&first, &again), "parsed once");
        let fresh = match_file::parse_program_file_in("p", text, Keywords::Plain).unwrap();
        assert_eq!(format!("{:?}", *first), format!("{fresh:?}"));
        assert!(program("p", "1: NONSENSE", Keywords::Plain).is_none());
        let board_text = robots_games::battle::files::shipped::board("classic").unwrap();
        let first = board("classic.yaml", board_text).expect("parses");
        assert!(Arc::ptr_eq(
            &first,
            &board("classic.yaml", board_text).unwrap()
        ));
        assert!(board("b.yaml", "not: [a board").is_none());
    }
}
