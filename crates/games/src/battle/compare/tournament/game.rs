//! One match of a tournament and how it went: what the schedule, the standings and the hill
//! share.

use crate::battle::engine::EndReason;
use crate::battle::show::report::reason_code;

/// One match of a tournament: entrants `a < b` (indices), whether `b` plays green (the first
/// colour) rather than `a`, and the seed index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Game {
    pub a: usize,
    pub b: usize,
    pub swapped: bool,
    pub seed_index: u32,
}

/// How a match went, from `a`'s side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Win,
    Draw,
    Loss,
}

impl Score {
    /// Points: 3 a win, 1 a draw.
    pub fn points(self) -> u32 {
        match self {
            Score::Win => 3,
            Score::Draw => 1,
            Score::Loss => 0,
        }
    }

    /// The share of the match won: 1, ½ or 0.
    pub fn share(self) -> f64 {
        match self {
            Score::Win => 1.0,
            Score::Draw => 0.5,
            Score::Loss => 0.0,
        }
    }

    /// The same match from the other side.
    pub fn flip(self) -> Score {
        match self {
            Score::Win => Score::Loss,
            Score::Draw => Score::Draw,
            Score::Loss => Score::Win,
        }
    }
}

/// A match played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    pub game: Game,
    pub seed: u64,
    pub score: Score,
    pub rounds: u32,
    pub reason: EndReason,
}

impl GameResult {
    pub fn reason_code(&self) -> &'static str {
        reason_code(self.reason)
    }
}
