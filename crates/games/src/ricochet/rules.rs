//! The rule options of RULES B.1 and B.2, and the one place each is tested: R-B1 (the active
//! robot must ricochet, that is turn at least once) and R-B2 (a one-move solution does not
//! count). Every search and the checker ask these two questions here.

use super::board::Dir;

/// The rule options (RULES B.1, B.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// R-B1: the active robot must turn at least once (default true).
    pub must_ricochet: bool,
    /// R-B2: a one-move solution does not count (default false).
    pub no_single_move: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            must_ricochet: true,
            no_single_move: false,
        }
    }
}

/// What a robot's moves so far say about R-B1: no move yet, moves along one axis only, or a
/// turn (moves along both axes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Axis {
    #[default]
    None,
    Horizontal,
    Vertical,
    Turned,
}

impl Axis {
    pub const ALL: [Axis; 4] = [Axis::None, Axis::Horizontal, Axis::Vertical, Axis::Turned];

    /// After one more move going `d`.
    pub fn after(self, d: Dir) -> Axis {
        let now = if d.is_horizontal() {
            Axis::Horizontal
        } else {
            Axis::Vertical
        };
        match self {
            Axis::None => now,
            Axis::Turned => Axis::Turned,
            before if before == now => before,
            _ => Axis::Turned,
        }
    }

    /// 0 to 3, in the order of [`Axis::ALL`]: an index into per-axis tables, and the bits a
    /// packed state keeps.
    pub fn index(self) -> usize {
        usize::from(self.bits())
    }

    pub fn bits(self) -> u8 {
        match self {
            Axis::None => 0,
            Axis::Horizontal => 1,
            Axis::Vertical => 2,
            Axis::Turned => 3,
        }
    }

    /// The axis of [`Axis::bits`] (only the two low bits are read).
    pub fn from_bits(bits: u8) -> Axis {
        Axis::ALL[usize::from(bits & 3)]
    }
}

impl Rules {
    /// R-B1: whether a robot whose moves so far come to `axis` may end on the target.
    pub fn ricocheted(self, axis: Axis) -> bool {
        !self.must_ricochet || axis == Axis::Turned
    }

    /// R-B2: whether a solution of `moves` moves counts.
    pub fn counts(self, moves: u32) -> bool {
        !(self.no_single_move && moves == 1)
    }

    /// Both: whether a move that brings the active robot (moves so far: `axis`) onto the
    /// target, as the `moves`-th move of the solution, ends a solution.
    pub fn arrival(self, axis: Axis, moves: u32) -> bool {
        self.ricocheted(axis) && self.counts(moves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RB1: Rules = Rules {
        must_ricochet: true,
        no_single_move: false,
    };
    const RB2: Rules = Rules {
        must_ricochet: false,
        no_single_move: true,
    };
    const BOTH: Rules = Rules {
        must_ricochet: true,
        no_single_move: true,
    };
    const NONE: Rules = Rules {
        must_ricochet: false,
        no_single_move: false,
    };

    #[test]
    fn the_axis_remembers_a_turn() {
        use Axis::{Horizontal as H, None as N, Turned as T, Vertical as V};
        // (before, direction, after)
        let rows = [
            (N, Dir::E, H),
            (N, Dir::W, H),
            (N, Dir::N, V),
            (N, Dir::S, V),
            (H, Dir::W, H),
            (H, Dir::N, T),
            (V, Dir::S, V),
            (V, Dir::E, T),
            (T, Dir::E, T),
            (T, Dir::N, T),
        ];
        for (before, d, after) in rows {
            assert_eq!(before.after(d), after, "{before:?} then {d:?}");
        }
        for a in Axis::ALL {
            assert_eq!(Axis::from_bits(a.bits()), a);
        }
    }

    #[test]
    fn r_b1_and_r_b2_decide_an_arrival() {
        // (rules, the active robot's axis, moves in the solution, counts)
        let rows = [
            (NONE, Axis::Horizontal, 1, true),
            (NONE, Axis::None, 0, true),
            (RB1, Axis::Horizontal, 1, false),
            (RB1, Axis::Vertical, 3, false),
            (RB1, Axis::Turned, 2, true),
            (RB1, Axis::None, 0, false),
            (RB2, Axis::Horizontal, 1, false),
            (RB2, Axis::Horizontal, 2, true),
            (RB2, Axis::None, 0, true),
            (BOTH, Axis::Turned, 1, false),
            (BOTH, Axis::Turned, 2, true),
            (BOTH, Axis::Vertical, 2, false),
        ];
        for (rules, axis, moves, counts) in rows {
            assert_eq!(
                rules.arrival(axis, moves),
                counts,
                "{rules:?}, {axis:?}, {moves} moves"
            );
        }
        assert_eq!(Rules::default(), RB1);
    }
}
