//! What changes during a match: robots, teams, occupancy, the clock, the generator. A
//! [`State`] is plain data: two states are equal when every field is, so a view or a test can
//! compare, hash and keep them (the debugger keeps one every 64 robot turns).

use super::event::{EndReason, RobotName};
use crate::battle::board::CellId;
use crate::battle::hex::Direction;
use crate::battle::terrain::TeamColour;
use rand_chacha::ChaCha8Rng;
use std::hash::{Hash, Hasher};

/// A robot's index in the match (teams in file order, robots in number order). A match has
/// at most 6 teams of 9 robots, so every index fits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RobotId(u8);

/// A team's index in the match (file order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TeamId(u8);

macro_rules! index_type {
    ($($id:ident),*) => {$(
        impl $id {
            /// The index into the match's arrays.
            #[inline]
            pub fn index(self) -> usize {
                usize::from(self.0)
            }

            /// The id of an index below the validated count (at most 54 robots, 6 teams).
            pub(super) fn at(index: usize) -> $id {
                $id(u8::try_from(index).expect("validated: at most 54 robots"))
            }
        }
    )*};
}

index_type!(RobotId, TeamId);

impl RobotId {
    /// The robot's bit in [`State::on_board`].
    #[inline]
    pub(super) fn bit(self) -> u64 {
        1 << (self.0 & 63)
    }
}

/// One robot's state (RULES A.3).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Robot {
    pub name: RobotName,
    pub team: TeamId,
    pub cell: CellId,
    pub facing: Direction,
    /// The last step read; 0 is the start box (R-A8).
    pub pointer: u8,
    /// Bit `n` set: step `n` is destroyed (R-A9).
    pub destroyed: u64,
    pub shots: u8,
    pub alive: bool,
    /// A received signal's step, waiting for this robot's next turn (R-A13).
    pub pending_signal: Option<u8>,
}

impl Robot {
    pub fn is_destroyed(&self, step: usize) -> bool {
        step < 64 && self.destroyed & (1 << step) != 0
    }

    /// The destroyed steps, in order.
    pub fn destroyed_steps(&self) -> Vec<u8> {
        (1..64u8)
            .filter(|&s| self.is_destroyed(usize::from(s)))
            .collect()
    }

    /// The step this robot reads first at its next turn, if no signal is waiting: the one
    /// after the pointer, or the pointer itself past the end of the program (R-A10).
    pub fn next_step(&self, program_len: usize) -> usize {
        let pointer = usize::from(self.pointer);
        if pointer > program_len {
            pointer
        } else {
            pointer + 1
        }
    }
}

/// A robot's calculator under the TI-57 rule (RULES A.12): its memories, persistent from
/// turn to turn and out of a signal's reach (R-A26), its remembered returns (R-A25) and
/// whether `R/S` stopped its program (R-A29).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Memories {
    pub x: i32,
    pub t: i32,
    pub r: [i32; 8],
    /// The steps to go back to, oldest first: `depth` of them are remembered (R-A25).
    pub returns: [u8; 2],
    pub depth: u8,
    /// `R/S` was read: the robot idles from then on, unless a signal acts (R-A29).
    pub stopped: bool,
}

impl Memories {
    /// The most returns remembered at once: the calculator's depth (R-A25).
    pub const MAX_RETURNS: usize = 2;

    /// The remembered returns, oldest first.
    pub fn remembered(&self) -> &[u8] {
        &self.returns[..usize::from(self.depth).min(Self::MAX_RETURNS)]
    }

    /// A memory's value.
    pub fn get(&self, register: crate::battle::lang::Register) -> i32 {
        match register {
            crate::battle::lang::Register::X => self.x,
            crate::battle::lang::Register::T => self.t,
            crate::battle::lang::Register::R(n) => self.r[usize::from(n) % 8],
        }
    }

    /// `x=3 t=0 R=[0 0 0 0 0 0 0 0]`, then the returns and `stopped` when there are: one
    /// line for logs and panels.
    pub fn summary(&self) -> String {
        let r: Vec<String> = self.r.iter().map(i32::to_string).collect();
        let mut out = format!("x={} t={} R0-R7=[{}]", self.x, self.t, r.join(" "));
        if self.depth > 0 {
            let back: Vec<String> = self.remembered().iter().map(u8::to_string).collect();
            out.push_str(&format!(" returns=[{}]", back.join(" ")));
        }
        if self.stopped {
            out.push_str(" stopped (R/S)");
        }
        out
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TeamState {
    pub colour: TeamColour,
    pub signals_left: u8,
    /// The round of the last signal sent: one per turn (R-A13).
    pub last_signal_round: Option<u32>,
    /// How many of the team's robots are still on the board (the end check reads it).
    pub alive: usize,
}

/// The result of a finished match.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    pub winner: Option<TeamColour>,
    pub reason: EndReason,
    pub rounds: u32,
}

impl Outcome {
    /// Who won and why, in words: `green wins (last team standing)`.
    pub fn verdict(&self) -> String {
        super::event::verdict(self.winner, self.reason)
    }
}

/// Where the match stands between two robot turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Clock {
    /// 1-based.
    pub round: u32,
    /// Which team of the play order is playing (0 = the first player).
    pub slot: usize,
    /// The next robot of that team to consider, as an index within the team.
    pub next: usize,
}

/// The match's random generator. Placement and the first-player draw consume it; it stays in
/// the state so every copy carries the same stream. Hashed by its seed, stream and position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchRng(pub(super) ChaCha8Rng);

impl Hash for MatchRng {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.get_seed().hash(state);
        self.0.get_stream().hash(state);
        self.0.get_word_pos().hash(state);
    }
}

/// Everything that changes during play. `Match` pairs it with the fixed data.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub(super) robots: Vec<Robot>,
    /// Bit `i` set: robot `i` is alive, as its `alive` says (at most 54 robots): the order
    /// of play finds the next robot to act in it with no scan (`play.rs`).
    pub(super) on_board: u64,
    pub(super) teams: Vec<TeamState>,
    /// The robot on each cell.
    pub(super) occupant: Vec<Option<RobotId>>,
    pub(super) rng: MatchRng,
    pub(super) first_team: TeamId,
    pub(super) clock: Clock,
    pub(super) outcome: Option<Outcome>,
    /// The team whose turn just ended, which may still send a signal by hand.
    pub(super) signal_window: Option<TeamId>,
    pub(super) turns: u64,
    /// Each robot's calculator, in robot order, under the TI-57 rule; empty without it, so
    /// the plain language pays nothing for it (RULES A.12).
    pub(super) memories: Vec<Memories>,
}

impl State {
    /// The round under way (or the last one, once the match is over).
    pub fn round(&self) -> u32 {
        self.clock.round
    }

    pub(super) fn robot_at(&self, cell: CellId) -> Option<RobotId> {
        self.occupant[cell.index()]
    }

    pub(super) fn robot(&self, id: RobotId) -> &Robot {
        &self.robots[id.index()]
    }
}

/// The bits below `n` set (all 64 from 64 up).
#[inline]
pub(super) fn low_bits(n: usize) -> u64 {
    u32::try_from(n)
        .ok()
        .and_then(|n| u64::MAX.checked_shl(n))
        .map_or(u64::MAX, |high| !high)
}
