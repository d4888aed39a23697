//! The other robots as the acting robot sees them, worked out once a turn for the compiled
//! tests (`compiled.rs`): each one's distance on each line relative to the facing, and all
//! around, as bit masks per kind of robot.

use super::state::{RobotId, State};
use crate::battle::board::Board;

/// How many masks a kind of robot (0 any, 1 enemy, 2 friend) has in [`Sight`]: the 6 lines
/// relative to the facing (0 ahead, 1 ahead-right, …), then the ring.
pub(super) const MASKS_PER_KIND: u8 = 7;
const KIND: usize = MASKS_PER_KIND as usize;

/// The other live robots as the acting robot sees them, per kind (0 any, 1 enemy, 2 friend):
/// the distances at which one stands (bit `min(d, 63)`) on each line, relative to the acting
/// robot's facing (0 ahead, 1 ahead-right, …), and all around ([`MASKS_PER_KIND`] masks
/// a kind).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Sight {
    masks: [u64; 3 * KIND],
    facing: u8,
    /// Worked out for this turn.
    seen: bool,
}

impl Sight {
    /// Works the sight out, once a turn: robots do not move while control steps are read.
    #[inline]
    pub(super) fn see(&mut self, board: &Board, s: &State, id: RobotId) -> &Sight {
        if !self.seen {
            self.fill(board, s, id);
        }
        self
    }

    fn fill(&mut self, board: &Board, s: &State, id: RobotId) {
        let me = &s.robots[id.index()];
        let facing = u8::try_from(me.facing.index()).unwrap_or(0);
        let m = &mut self.masks;
        for (i, r) in s.robots.iter().enumerate() {
            if !r.alive || i == id.index() {
                continue;
            }
            let (d, line) = board.relation(me.cell, r.cell);
            let bit = 1u64 << d.min(63);
            let kind = if r.team == me.team { 2 * KIND } else { KIND };
            m[6] |= bit;
            m[kind + 6] |= bit;
            // Not on one straight line: NOT_IN_LINE.
            if line < 6 {
                let turned = line + 6 - facing;
                let relative = usize::from(if turned >= 6 { turned - 6 } else { turned });
                m[relative] |= bit;
                m[kind + relative] |= bit;
            }
        }
        self.facing = facing;
        self.seen = true;
    }

    /// The mask at a slot of [`Sight::masks`].
    #[inline]
    pub(super) fn at(&self, slot: u8) -> u64 {
        self.masks.get(usize::from(slot)).copied().unwrap_or(0)
    }

    /// A kind's robots on the line of absolute direction `dir`.
    #[inline]
    pub(super) fn toward(&self, who: u8, dir: u8) -> u64 {
        let relative = (dir % 6 + 6 - self.facing) % 6;
        self.at(who * MASKS_PER_KIND + relative)
    }
}
