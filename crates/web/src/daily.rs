//! The puzzle of the day (web/play/ENGINE.md, "Ricochet"): a position drawn from a date and a
//! difficulty, the same for everyone. The draw is `ricochet random --seed N --id`'s, its seeds
//! taken in turn from the date's text, and the first position whose fewest moves (the
//! solver's, under the rules asked for) equal the difficulty is the day's. Nothing here reads a
//! clock: the page says which date it is.

use crate::answer::{ErrorKind, Failure, json};
use robots_games::ricochet::files::random_id;
use robots_games::ricochet::rules::Rules;
use robots_games::ricochet::solve::{Budget, solve_within};
use robots_games::text::escape;
use serde::{Deserialize, Serialize};

/// The difficulties offered: the fewest moves of the day's position.
pub const DIFFICULTIES: std::ops::RangeInclusive<u32> = 2..=12;

/// The most positions drawn for one day: far more than the rarest difficulty needs (about one
/// random position in 400 needs 12 moves).
pub const MAX_DRAWS: u64 = 40_000;

/// Each draw's search budget: a position over it is passed over, the same way everywhere.
const DRAW_STATES: u64 = 1_000_000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Day {
    /// `YYYY-MM-DD`.
    date: String,
    moves: u32,
    must_ricochet: Option<bool>,
}

/// FNV-1a, 64 bits: the seed of a draw from its text (stable across platforms and versions).
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn is_date(date: &str) -> bool {
    let b = date.as_bytes();
    b.len() == 10
        && b.iter().enumerate().all(|(i, c)| match i {
            4 | 7 => *c == b'-',
            _ => c.is_ascii_digit(),
        })
}

/// The day's position: its game id, the seed that drew it, its fewest moves, and how many
/// positions were drawn before it.
pub fn daily(request: &str) -> Result<String, Failure> {
    let r: Day = serde_json::from_str(request)?;
    if !is_date(&r.date) {
        return Err(Failure::new(
            ErrorKind::Request,
            format!("date `{}`: YYYY-MM-DD", escape(&r.date)),
        ));
    }
    if !DIFFICULTIES.contains(&r.moves) {
        return Err(Failure::new(
            ErrorKind::Limit,
            format!("moves: {} to {}", DIFFICULTIES.start(), DIFFICULTIES.end()),
        ));
    }
    let rules = Rules {
        must_ricochet: r.must_ricochet.unwrap_or(true),
        no_single_move: false,
    };
    let budget = Budget {
        max_states: DRAW_STATES,
    };
    for draw in 0..MAX_DRAWS {
        let seed = fnv1a(&format!("robots daily {} {} {draw}", r.date, r.moves));
        let id = random_id(seed, 4);
        let Ok(p) = id.position(rules) else { continue };
        if solve_within(&p, r.moves, budget, &mut |_| {}).is_ok_and(|s| s.moves == r.moves) {
            #[derive(Serialize)]
            struct Found {
                id: String,
                seed: String,
                moves: u32,
                draws: u64,
            }
            return json(&Found {
                id: id.to_string(),
                seed: seed.to_string(),
                moves: r.moves,
                draws: draw + 1,
            });
        }
    }
    Err(Failure::new(
        ErrorKind::Unsolved,
        format!("no position of {} moves in {MAX_DRAWS} draws", r.moves),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_of_a_text_is_fnv1a() {
        // The published test vectors of FNV-1a 64.
        assert_eq!(fnv1a(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a("a"), 0xaf63_dc4c_8601_ec8c);
        assert!(is_date("2026-11-28"));
        assert!(!is_date("2026-11-2x") && !is_date("26-11-28"));
    }
}
