//! The other robots as the acting robot sees them, worked out once a turn for the compiled
//! tests (`compiled.rs`): each one's distance on each line relative to the facing, and all
//! around, as bit masks for enemies and for friends.

use crate::battle::board::Board;
use crate::battle::engine::state::{RobotId, State};

/// Where friends' masks start in [`Sight`] (enemies' at 0): the 6 lines relative to the
/// facing (0 ahead, 1 ahead-right, …), then the ring (6).
pub(crate) const FRIENDS: u8 = 8;
const KIND: usize = FRIENDS as usize;
/// The slot (enemies'; friends' at `FRIENDS +` it) that a robot on no straight line from the
/// acting one is written to: no question reads it.
const OFF_LINE: u8 = 7;

/// The other live robots as the acting robot sees them, enemies and friends: the distances at
/// which one stands (bit `min(d, 63)`) on each line, relative to the acting robot's facing
/// (0 ahead, 1 ahead-right, …), and all around. A robot of any team is in either mask.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Sight {
    /// 16 for indexing without bounds checks (14 are read; [`OFF_LINE`]'s two are not).
    masks: [u64; 16],
    facing: u8,
    /// Worked out for this turn.
    seen: bool,
}

impl Sight {
    /// Works the sight out, once a turn: robots do not move while control steps are read.
    #[inline]
    pub(crate) fn see(&mut self, board: &Board, s: &State, id: RobotId) -> &Sight {
        if !self.seen {
            self.fill(board, s, id);
        }
        self
    }

    #[inline(always)]
    fn fill(&mut self, board: &Board, s: &State, id: RobotId) {
        let me = &s.robots[id.index()];
        let facing = u8::try_from(me.facing.index()).unwrap_or(0);
        // A sight is made empty (`Default`) and filled at most once: its masks are all 0.
        let m = &mut self.masks;
        for (i, r) in s.robots.iter().enumerate() {
            if !r.alive || i == id.index() {
                continue;
            }
            let (d, line) = board.relation(me.cell, r.cell);
            let bit = 1u64 << d.min(63);
            let kind = if r.team == me.team { KIND } else { 0 };
            m[(kind + 6) & 15] |= bit;
            // Not on one straight line (NOT_IN_LINE): written to a slot no question reads,
            // rather than a branch that cannot be foreseen.
            let turned = line.wrapping_add(6).wrapping_sub(facing);
            let relative = if line >= 6 {
                OFF_LINE
            } else if turned >= 6 {
                turned - 6
            } else {
                turned
            };
            m[(kind + usize::from(relative)) & 15] |= bit;
        }
        self.facing = facing;
        self.seen = true;
    }

    /// The union of the masks at two slots (the same slot twice: its mask).
    #[inline]
    pub(crate) fn either(&self, slots: [u8; 2]) -> u64 {
        let at = |slot: u8| self.masks[usize::from(slot & 15)];
        at(slots[0]) | at(slots[1])
    }

    /// A kind's robots (0 any, 1 enemies, 2 friends) on the line of absolute direction `dir`.
    #[inline]
    pub(crate) fn toward(&self, who: u8, dir: u8) -> u64 {
        let relative = (dir % 6 + 6 - self.facing) % 6;
        match who {
            1 => self.either([relative; 2]),
            2 => self.either([FRIENDS + relative; 2]),
            _ => self.either([relative, FRIENDS + relative]),
        }
    }
}
