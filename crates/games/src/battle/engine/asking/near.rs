//! The other robots as the acting robot sees them, in two words (enemies' and friends'): the
//! sight of the robot questions whose ranges are near (`enemy ahead 2`, `friend within 6`)
//! or the whole of a line or ring (`enemy ahead`), which most programs ask. Worked out in
//! registers, with no set cleared in memory; a question is two masks, answered with two
//! `and`s. Other ranges, `anywhere` and absolute lines read the [`super::sight::Seen`].

use crate::battle::board::Board;
use crate::battle::engine::state::{RobotId, State};
use crate::battle::lang::MAX_DISTANCE;

/// Robots, or the robots a question asks about, as bits: in each word, byte `s` for the
/// [`Slot`] `s` (0–5 the lines relative to the facing, 6 all around), and in that byte bit
/// `d` for distance `d` below 7, bit 7 for distances 7 to [`MAX_DISTANCE`] (the farthest a
/// range reaches): a robot farther has no bit, and no question here asks about it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Near {
    enemies: u64,
    friends: u64,
}

/// The byte of bits of a distance (capped at 255): see [`Near`].
const BUCKET: [u8; 256] = {
    let mut bits = [0u8; 256];
    let mut d = 0;
    while d < 256 {
        bits[d] = if d < 7 {
            1 << d
        } else if d <= MAX_DISTANCE as usize {
            0x80
        } else {
            0
        };
        d += 1;
    }
    bits
};

/// The ring's byte.
const RING: u32 = 6;

/// Per facing (its index), for the line of the board's relation table (its index `& 7`:
/// 0–5, 7 none): distance 0's bits of a robot there, on its line relative to the facing and
/// all around (only all around off the lines). A robot's bits are this times its distance's
/// [`BUCKET`] (one bit, or none).
const BASE: [[u64; 8]; 6] = {
    let mut table = [[1u64 << (8 * RING); 8]; 6];
    let mut facing = 0usize;
    while facing < 6 {
        let mut line = 0usize;
        while line < 6 {
            let relative = (line + 6 - facing) % 6;
            table[facing][line] |= 1u64 << (8 * relative);
            line += 1;
        }
        facing += 1;
    }
    table
};

impl Near {
    /// The other robots as robot `id` sees them now.
    #[inline(always)]
    pub(crate) fn of(board: &Board, s: &State, id: RobotId) -> Near {
        let me = &s.robots[id.index()];
        let base = &BASE[me.facing.index().min(5)];
        let (mut enemies, mut friends) = (0u64, 0u64);
        for_each_other!(board, s, id, me, |packed, r| {
            let (distance, line) = crate::battle::board::unpack_relation(packed);
            let bucket = BUCKET[usize::from(u8::try_from(distance).unwrap_or(u8::MAX))];
            let bits = base[usize::from(line & 7)].wrapping_mul(u64::from(bucket));
            // All ones for a friend: no branch that cannot be foreseen.
            let friend = u64::from(r.team == me.team).wrapping_neg();
            enemies |= bits & !friend;
            friends |= bits & friend;
        });
        Near { enemies, friends }
    }

    /// Whether a robot of `self` is one that `asked` asks about.
    #[inline(always)]
    pub(crate) fn meets(self, asked: Near) -> bool {
        (self.enemies & asked.enemies) | (self.friends & asked.friends) != 0
    }

    /// The robots asked about: `enemies`' and `friends`' bits.
    pub(crate) const fn new(enemies: u64, friends: u64) -> Near {
        Near { enemies, friends }
    }
}

/// Runs `body` for each other robot on the board as robot `id` (`me`) sees it, `r` bound to
/// the robot and `packed` to its relation from `me`'s hex as the board's table packs it. By
/// the robots' bits: no check a robot for itself or its life. A macro, so that each sight's
/// loop compiles as if written out (a closure costs instructions a turn: callgrind).
macro_rules! for_each_other {
    ($board:expr, $s:expr, $id:expr, $me:expr, |$packed:ident, $r:ident| $body:block) => {{
        // Where the acting robot's row of the board's relation table starts.
        let (table, from) = ($board.relation_table(), $me.cell.index() * $board.len());
        let mut others = $s.on_board & !$id.bit();
        while others != 0 {
            let i = usize::try_from(others.trailing_zeros()).unwrap_or(usize::MAX);
            others &= others - 1;
            let Some($r) = $s.robots.get(i) else {
                continue;
            };
            let $packed = match table.get(from + $r.cell.index()) {
                Some(&packed) => packed,
                None => $board.packed_relation($me.cell, $r.cell),
            };
            $body
        }
    }};
}
pub(super) use for_each_other;

#[cfg(test)]
mod tests {
    use super::{BASE, BUCKET, Near, RING};
    use crate::battle::engine::asking::sight::near_asked;
    use crate::battle::engine::asking::sight::{DistanceSet, Kind, Slot};
    use crate::battle::lang::MAX_DISTANCE;

    /// Every range a question can hold, every slot and kind, every distance and line: a
    /// robot's bits meet a question's masks exactly when its distance is in the range and
    /// it is in one of the question's sets; the ranges [`Near`] leaves are the far ones.
    #[test]
    fn near_answers_as_the_distance_sets() {
        let mut held = 0;
        for min in 0..=MAX_DISTANCE {
            for max in 0..=MAX_DISTANCE {
                let range = DistanceSet::range(min, max).expect("a range");
                let fits = max < 7 || (max == MAX_DISTANCE && min < 8) || min > max;
                for kind in [Kind::Any, Kind::Enemy, Kind::Friend] {
                    for slot in (0..6).map(Slot::line).chain([Slot::RING]) {
                        let slots = kind.slots(slot);
                        let asked = near_asked(slots, range);
                        assert_eq!(asked.is_some(), fits, "{min}..={max}");
                        let Some(asked) = asked else { continue };
                        held += 1;
                        for d in 0..=255u8 {
                            let bucket = u64::from(BUCKET[usize::from(d)]);
                            for (line, base) in BASE[0].iter().enumerate() {
                                let bits = base.wrapping_mul(bucket);
                                let on = |s: Slot| {
                                    s == Slot::RING
                                        || u8::try_from(line)
                                            .is_ok_and(|l| l < 6 && s == Slot::line(l))
                                };
                                for friend in [false, true] {
                                    let seen = if friend {
                                        Near {
                                            enemies: 0,
                                            friends: bits,
                                        }
                                    } else {
                                        Near {
                                            enemies: bits,
                                            friends: 0,
                                        }
                                    };
                                    let wanted = match kind {
                                        Kind::Any => true,
                                        Kind::Enemy => !friend,
                                        Kind::Friend => friend,
                                    };
                                    let expected = wanted
                                        && on(slot)
                                        && range
                                            .meets(DistanceSet::range(d, d).unwrap_or(
                                                DistanceSet::range(62, 62).expect("62"),
                                            ));
                                    assert_eq!(
                                        seen.meets(asked),
                                        expected,
                                        "{min}..={max} {kind:?} {slot:?} at {d} on {line}"
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(held > 500, "{held}");
        assert_eq!(BASE[0][7], 1 << (8 * RING));
    }
}
