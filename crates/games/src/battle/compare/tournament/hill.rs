//! A hill (king of the hill, as Core War hills keep them): at most H programs, each having
//! met every other over the hill's seeds exactly as a tournament pairs them. A newcomer plays
//! only the pairings that are missing; the standings are the tournament's; the last is pushed
//! off while the hill holds more than H. Pure: which games are missing, results moved from one
//! list of programs to another, who is pushed off. The files are the caller's.

use super::game::{Game, GameResult};
use super::schedule;
use super::standings::standings;
use std::collections::BTreeSet;
use std::ops::RangeInclusive;

/// The longest name a program on a hill may have.
pub const MAX_NAME_CHARS: usize = 64;

/// Whether `name` can name a program on a hill (and its file, `NAME.robot`): 1 to 64 ASCII
/// letters, digits, `_` and `-`.
pub fn is_safe_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME_CHARS
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// The games of a round robin of `n` programs over `seeds` that `played` does not hold, in the
/// schedule's order.
pub fn missing(n: usize, seeds: &RangeInclusive<u32>, played: &[GameResult]) -> Vec<Game> {
    let have: BTreeSet<Game> = played.iter().map(|r| r.game).collect();
    schedule(n, seeds)
        .into_iter()
        .filter(|g| !have.contains(g))
        .collect()
}

/// `r` between programs numbered anew by `to` (old index to new, `None` for a program that
/// is gone): the same match, green and violet the same programs, the score from the side of
/// the new lower index. `None` when either program is gone or both map to one.
pub fn reindex(r: &GameResult, to: impl Fn(usize) -> Option<usize>) -> Option<GameResult> {
    let (green, violet) = if r.game.swapped {
        (r.game.b, r.game.a)
    } else {
        (r.game.a, r.game.b)
    };
    let (green, violet) = (to(green)?, to(violet)?);
    if green == violet {
        return None;
    }
    let green_score = if r.game.swapped {
        r.score.flip()
    } else {
        r.score
    };
    let swapped = green > violet;
    Some(GameResult {
        game: Game {
            a: green.min(violet),
            b: green.max(violet),
            swapped,
            seed_index: r.game.seed_index,
        },
        score: if swapped {
            green_score.flip()
        } else {
            green_score
        },
        ..*r
    })
}

/// What is left of a hill once it holds at most its size.
#[derive(Clone, Debug, PartialEq)]
pub struct Crowned {
    /// The indices (among the names given) of the programs that stay, in their order.
    pub kept: Vec<usize>,
    /// The indices of the programs pushed off, first pushed first.
    pub pushed: Vec<usize>,
    /// The results between programs that stay, numbered as in `kept`, in schedule order.
    pub results: Vec<GameResult>,
}

/// Pushes off the last of the standings (the tournament's: points, rating, name) while more
/// than `size` programs are left, ranking again after each, with the pushed program's results
/// gone.
pub fn crown(names: &[String], results: &[GameResult], size: usize) -> Crowned {
    let mut kept: Vec<usize> = (0..names.len()).collect();
    let mut pushed = Vec::new();
    let mut now: Vec<GameResult> = results.to_vec();
    while kept.len() > size.max(1) {
        let current: Vec<String> = kept.iter().map(|&i| names[i].clone()).collect();
        let table = standings(&current, &now);
        let Some(last) = table.rows.last().map(|r| r.entrant) else {
            break;
        };
        pushed.push(kept.remove(last));
        let to = |i: usize| match i.cmp(&last) {
            std::cmp::Ordering::Less => Some(i),
            std::cmp::Ordering::Equal => None,
            std::cmp::Ordering::Greater => Some(i - 1),
        };
        now = now.iter().filter_map(|r| reindex(r, to)).collect();
    }
    now.sort_by_key(|r| r.game);
    Crowned {
        kept,
        pushed,
        results: now,
    }
}
