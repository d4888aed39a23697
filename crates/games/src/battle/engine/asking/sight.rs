//! The other robots as the acting robot sees them, worked out once a turn for the compiled
//! tests (`compiled.rs`): each one's distance on each line relative to the facing, and all
//! around, as sets of distances for enemies and for friends. The encodings the robot
//! questions share: [`Kind`] (whose robots), [`Slot`] (which of the sight's sets) and
//! [`DistanceSet`].

use super::near::{Near, for_each_other};
use crate::battle::board::Board;
use crate::battle::engine::state::{RobotId, State};
use crate::battle::hex::Direction;
use crate::battle::lang::MAX_DISTANCE;
use std::ops::{BitOr, BitOrAssign};

/// Whose robots a question is about (`robot`, `enemy`, `friend`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Any,
    Enemy,
    Friend,
}

impl Kind {
    /// The sets a kind's robots at the enemies' slot `enemies` are in: the same slot twice
    /// when one set holds them. The one reading of a [`Kind`].
    #[inline]
    pub(crate) fn slots(self, enemies: Slot) -> [Slot; 2] {
        match self {
            Kind::Enemy => [enemies; 2],
            Kind::Friend => [enemies.friends(); 2],
            Kind::Any => [enemies, enemies.friends()],
        }
    }
}

/// Which of a [`Sight`]'s sets: enemies' or friends' on a line relative to the facing, or
/// all around. Enemies' are 0–5 (the lines: 0 ahead, 1 ahead-right, …) and 6 (the ring);
/// friends' the same from [`Slot::FRIENDS`]. The one writing of the layout is here.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Slot(u8);

impl Slot {
    /// Enemies all around.
    pub(crate) const RING: Slot = Slot(6);
    /// Where friends' slots start.
    const FRIENDS: u8 = 8;
    /// The slot (enemies'; friends' from [`Slot::FRIENDS`]) that a robot on no straight
    /// line from the acting one is written to: no question reads it.
    const OFF_LINE: u8 = 7;

    /// Enemies on the line `sixths` sixths clockwise from the facing.
    #[inline]
    pub(crate) fn line(sixths: u8) -> Slot {
        Slot(sixths % 6)
    }

    /// The friends' slot of the same place.
    #[inline]
    fn friends(self) -> Slot {
        Slot(Slot::FRIENDS + self.0)
    }

    /// The index of the set (below 16: no bounds check).
    #[inline]
    fn index(self) -> usize {
        usize::from(self.0 & 15)
    }
}

/// Distances from the acting robot, as bits: bit `d` for distance `d`, bit 63 for 63 and
/// farther (which no range of a question holds).
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct DistanceSet(u64);

impl DistanceSet {
    /// Every distance.
    pub(crate) const ANY: DistanceSet = DistanceSet(u64::MAX);

    /// One distance, from a table (no clamp to 63 a robot seen).
    #[inline]
    fn at(d: u8) -> DistanceSet {
        DistanceSet(BITS[usize::from(d)])
    }

    /// Distances `min..=max`, for ranges below 63; `None` past that.
    pub(crate) fn range(min: u8, max: u8) -> Option<DistanceSet> {
        if max > 62 {
            return None;
        }
        if min > max {
            return Some(DistanceSet(0));
        }
        Some(DistanceSet(
            ((1u64 << (max + 1)) - 1) & !((1u64 << min) - 1),
        ))
    }

    /// Whether the two sets share a distance.
    #[inline]
    pub(crate) fn meets(self, other: DistanceSet) -> bool {
        self.0 & other.0 != 0
    }
}

/// [`DistanceSet::at`] of every distance a relation holds (capped at 255).
const BITS: [u64; 256] = {
    let mut bits = [0u64; 256];
    let mut d = 0;
    while d < 256 {
        bits[d] = 1u64 << if d < 63 { d } else { 63 };
        d += 1;
    }
    bits
};

impl BitOr for DistanceSet {
    type Output = DistanceSet;
    #[inline]
    fn bitor(self, other: DistanceSet) -> DistanceSet {
        DistanceSet(self.0 | other.0)
    }
}

impl BitOrAssign for DistanceSet {
    #[inline]
    fn bitor_assign(&mut self, other: DistanceSet) {
        self.0 |= other.0;
    }
}

/// The other live robots as the acting robot sees them, enemies and friends: the distances at
/// which one stands on each line, relative to the acting robot's facing, and all around
/// ([`Slot`]). A robot of any team is in either set. Worked out at the first question about
/// robots (`Default` is not yet worked out: no sets cleared for a turn that never asks), and
/// so is its [`Near`] for the questions that read that.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Sight {
    seen: Option<Seen>,
    near: Option<Near>,
}

/// A worked-out [`Sight`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Seen {
    /// 16 for indexing without bounds checks (14 are read; [`Slot::OFF_LINE`]'s two are not).
    sets: [DistanceSet; 16],
    facing: u8,
}

/// Per facing (its index), the enemies' slot of each line from the board's relation table
/// (its index `& 7`: 0–5 the lines, [`crate::battle::board::NOT_IN_LINE`] `& 7` = 7 none):
/// the line turned to be relative to the facing, or [`Slot::OFF_LINE`]. A table, so the fill
/// has neither branch nor modulo.
const RELATIVE: [[u8; 8]; 6] = {
    let mut table = [[Slot::OFF_LINE; 8]; 6];
    let mut facing = 0u8;
    while facing < 6 {
        let mut line = 0u8;
        while line < 6 {
            table[facing as usize][line as usize] = (line + 6 - facing) % 6;
            line += 1;
        }
        facing += 1;
    }
    table
};

impl Sight {
    /// Works the sight out, once a turn: robots do not move while control steps are read.
    #[inline]
    pub(crate) fn see(&mut self, board: &Board, s: &State, id: RobotId) -> &Seen {
        match self.seen {
            Some(ref seen) => seen,
            None => self.seen.insert(Seen::EMPTY).fill(board, s, id),
        }
    }
}

/// A turn's sight with its [`Near`] worked out before the first question (a fused turn,
/// which nearly always asks about robots near: no check a question), the rest at the first
/// question that reads it.
pub(crate) struct Eager {
    near: Near,
    sight: Sight,
}

impl Eager {
    #[inline(always)]
    pub(crate) fn new(board: &Board, s: &State, id: RobotId) -> Eager {
        Eager {
            near: Near::of(board, s, id),
            sight: Sight::default(),
        }
    }
}

/// Where a turn's questions about robots read the sight from: a [`Sight`] worked out at the
/// first of them, or an [`Eager`] one.
pub(crate) trait Sees {
    fn seen(&mut self, board: &Board, s: &State, id: RobotId) -> &Seen;
    fn near(&mut self, board: &Board, s: &State, id: RobotId) -> Near;
}

impl Sees for Sight {
    #[inline(always)]
    fn seen(&mut self, board: &Board, s: &State, id: RobotId) -> &Seen {
        self.see(board, s, id)
    }

    #[inline(always)]
    fn near(&mut self, board: &Board, s: &State, id: RobotId) -> Near {
        *self.near.get_or_insert_with(|| Near::of(board, s, id))
    }
}

impl Sees for Eager {
    #[inline(always)]
    fn seen(&mut self, board: &Board, s: &State, id: RobotId) -> &Seen {
        self.sight.see(board, s, id)
    }

    #[inline(always)]
    fn near(&mut self, _: &Board, _: &State, _: RobotId) -> Near {
        self.near
    }
}

impl Seen {
    /// No robot seen, to be filled in place ([`Seen::fill`]).
    pub(crate) const EMPTY: Seen = Seen {
        sets: [DistanceSet(0); 16],
        facing: 0,
    };

    /// The other robots as robot `id` sees them now, worked out into an [`Seen::EMPTY`].
    #[inline(always)]
    pub(crate) fn fill(&mut self, board: &Board, s: &State, id: RobotId) -> &Seen {
        let me = &s.robots[id.index()];
        let facing = me.facing.index().min(5);
        let relative = &RELATIVE[facing];
        self.facing = u8::try_from(facing).unwrap_or(0);
        let m = &mut self.sets;
        for_each_other!(board, s, id, me, |packed, r| {
            let (distance, line) = crate::battle::board::unpack_relation(packed);
            let bit = DistanceSet::at(u8::try_from(distance).unwrap_or(u8::MAX));
            // The slots' layout, in `usize` (cheaper here than through `Slot`).
            let kind = usize::from(if r.team == me.team { Slot::FRIENDS } else { 0 });
            m[(kind + usize::from(Slot::RING.0)) & 15] |= bit;
            // Not on one straight line: written to a slot no question reads, rather than a
            // branch that cannot be foreseen.
            m[(kind + usize::from(relative[usize::from(line & 7)])) & 15] |= bit;
        });
        self
    }

    /// The union of the sets at two slots (the same slot twice: its set).
    #[inline]
    pub(crate) fn either(&self, slots: [Slot; 2]) -> DistanceSet {
        self.sets[slots[0].index()] | self.sets[slots[1].index()]
    }

    /// A kind's robots on the line of absolute direction `dir`.
    #[inline]
    pub(crate) fn toward(&self, who: Kind, dir: Direction) -> DistanceSet {
        let dir = u8::try_from(dir.index()).unwrap_or(0);
        let line = Slot::line(dir % 6 + 6 - self.facing);
        // As `who.slots(line)`, but one arm a kind: fewer instructions a turn (callgrind).
        match who {
            Kind::Enemy => self.either([line; 2]),
            Kind::Friend => self.either([line.friends(); 2]),
            Kind::Any => self.either([line, line.friends()]),
        }
    }
}

/// What a question about robots at `range` in the sets at `slots` asks, if a [`Near`] holds
/// it: ranges below 7, or from below 8 to [`MAX_DISTANCE`].
pub(crate) fn near_asked(slots: [Slot; 2], range: DistanceSet) -> Option<Near> {
    let byte = range.buckets()?;
    let (mut enemies, mut friends) = (0u64, 0u64);
    for slot in slots {
        let (word, at) = match slot.index() {
            i @ 0..8 => (&mut enemies, i),
            i => (&mut friends, i - 8),
        };
        *word |= u64::from(byte) << (8 * at);
    }
    Some(Near::new(enemies, friends))
}

impl DistanceSet {
    /// The set as a byte of a [`Near`]: distances below 7, and 7 to [`MAX_DISTANCE`] all in
    /// or all out, nothing farther.
    fn buckets(self) -> Option<u8> {
        let bits = self.0;
        let low = u8::try_from(bits & 0x7f).unwrap_or(0);
        // Distances 7 to MAX_DISTANCE.
        let far = (1u64 << (MAX_DISTANCE + 1)) - (1 << 7);
        match bits & !0x7f {
            0 => Some(low),
            b if b == far => Some(low | 0x80),
            _ => None,
        }
    }
}
