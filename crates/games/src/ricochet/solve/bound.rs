//! The lower bound of the standard searches: the fewest moves of one robot alone from each
//! cell (and, under R-B1, with the axes of its moves so far) to the target, when it may stop
//! on any cell before a wall (a helper could stand just beyond). Helpers never lower it, and
//! each move of the robot lowers it by one at most: A* with it finds the fewest moves.
//!
//! One backward breadth-first sweep from the target, over sets of cells held in two 128-bit
//! words, in fixed arrays: no allocation. The same sweep notes, per cell and axis, the
//! directions whose path (walls only) crosses a cell one lower ([`Bound::downhill`]): a move
//! that lowers the bound can only go one of them, so the finish-alone tries slide no other.

use super::standard::CELLS;
use crate::ricochet::board::{Board, Dir};
use crate::ricochet::rules::{Axis, Rules};

/// Never reaches the target.
pub const NEVER: u8 = u8::MAX;

/// Per cell and [`Axis`] (only [`Axis::None`] without R-B1): the bound, or [`NEVER`]; and the
/// directions that may lower it by one ([`Bound::downhill`]).
pub struct Bound {
    pub lb: [[u8; 4]; CELLS],
    /// Per cell and axis: bit `d` set when some cell on the path going `d` (walls only, the
    /// cell itself left out) has a bound one lower, with the axis after the move.
    downhill: [[u8; 4]; CELLS],
}

/// A set of the 256 cells: bit `c % 128` of word `c / 128`.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Bits([u128; 2]);

impl Bits {
    const ZERO: Bits = Bits([0; 2]);

    fn with(mut self, c: usize) -> Bits {
        self.0[c / 128] |= 1 << (c % 128);
        self
    }

    fn is_empty(self) -> bool {
        self.0 == [0; 2]
    }

    fn and(self, o: Bits) -> Bits {
        Bits([self.0[0] & o.0[0], self.0[1] & o.0[1]])
    }

    fn or(self, o: Bits) -> Bits {
        Bits([self.0[0] | o.0[0], self.0[1] | o.0[1]])
    }

    fn and_not(self, o: Bits) -> Bits {
        Bits([self.0[0] & !o.0[0], self.0[1] & !o.0[1]])
    }

    /// Cell `c` of the result is cell `c + k` of `self` (`k` from −255 to 255).
    #[inline(always)]
    fn back(self, k: i32) -> Bits {
        let [lo, hi] = self.0;
        let n = k.unsigned_abs();
        if k >= 0 {
            match n {
                0 => self,
                1..128 => Bits([lo >> n | hi << (128 - n), hi >> n]),
                _ => Bits([hi >> (n - 128), 0]),
            }
        } else {
            match n {
                1..128 => Bits([lo << n, hi << n | lo >> (128 - n)]),
                _ => Bits([0, lo << (n - 128)]),
            }
        }
    }

    /// Cells from which a move whose step is `STEP` passes over or stops on a cell of
    /// `self`: chains of cells open on that side (`open`), ended by one next to `self`. The
    /// step is a constant, so that every shift is by a constant.
    #[inline(always)]
    fn before<const STEP: i32>(self, open: Bits) -> Bits {
        let mut g = self.back(STEP).and(open);
        let mut p = open;
        for k in [1, 2, 4] {
            g = g.or(p.and(g.back(STEP * k)));
            p = p.and(p.back(STEP * k));
        }
        g.or(p.and(g.back(STEP * 8)))
    }

    /// [`Bits::before`] for a move going `d`.
    fn before_going(self, d: Dir, open: Bits) -> Bits {
        match d {
            Dir::N => self.before::<-16>(open),
            Dir::E => self.before::<1>(open),
            Dir::S => self.before::<16>(open),
            Dir::W => self.before::<-1>(open),
        }
    }

    /// `f` on each cell of the set, in increasing order.
    #[inline(always)]
    fn each(self, mut f: impl FnMut(usize)) {
        for (w, &word) in self.0.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                f(w * 128 + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
    }
}

/// Per direction: the cells of a 16×16 board with no wall on that side. Eight cells at a
/// time: bit `d` of each of eight wall bytes gathered into one byte by a multiplication (the
/// byte's bits land on distinct positions, so nothing carries).
fn open_sides(walls: &[u8]) -> [Bits; 4] {
    let mut open = [Bits::ZERO; 4];
    for (i, eight) in walls.chunks_exact(8).take(CELLS / 8).enumerate() {
        let mut word = [0u8; 8];
        word.copy_from_slice(eight);
        let none = !u64::from_le_bytes(word);
        for (d, set) in open.iter_mut().enumerate() {
            let lows = none >> d & 0x0101_0101_0101_0101;
            let byte = lows.wrapping_mul(0x0102_0408_1020_4080) >> 56;
            set.0[i / 16] |= u128::from(byte) << (8 * (i % 16));
        }
    }
    open
}

impl Bound {
    /// The bound towards `goal` on a 16×16 board: a breadth-first sweep back from the target
    /// over sets of cells, a set per axis.
    pub fn new(board: &Board, goal: u8, rules: Rules) -> Bound {
        let mut lb = [[NEVER; 4]; CELLS];
        let mut downhill = [[0u8; 4]; CELLS];
        // Per direction: the cells with no wall on that side.
        let open = open_sides(&board.walls);
        let axes: &[Axis] = if rules.must_ricochet {
            &Axis::ALL
        } else {
            &[Axis::None]
        };
        let end = if rules.must_ricochet {
            Axis::Turned
        } else {
            Axis::None
        };
        let mut level = [Bits::ZERO; 4];
        level[end.index()] = Bits::ZERO.with(usize::from(goal));
        let mut seen = level;
        lb[usize::from(goal)][end.index()] = 0;
        for depth in 1..NEVER {
            // Per direction and axis after the move: the cells the move could start from.
            let mut next = [Bits::ZERO; 4];
            // Per axis before the move and direction: the cells that move may start from.
            let mut by = [[Bits::ZERO; 4]; 4];
            for d in Dir::ALL {
                let mut from: [Option<Bits>; 4] = [None; 4];
                for &a in axes {
                    let after = if rules.must_ricochet { a.after(d) } else { a };
                    let set = level[after.index()];
                    if set.is_empty() {
                        continue;
                    }
                    let cells = *from[after.index()]
                        .get_or_insert_with(|| set.before_going(d, open[d as usize]));
                    by[a.index()][d as usize] = cells;
                    next[a.index()] = next[a.index()].or(cells);
                }
            }
            let mut any = false;
            for &a in axes {
                let fresh = next[a.index()].and_not(seen[a.index()]);
                seen[a.index()] = seen[a.index()].or(fresh);
                fresh.each(|c| lb[c][a.index()] = depth);
                for d in Dir::ALL {
                    by[a.index()][d as usize]
                        .and(fresh)
                        .each(|c| downhill[c][a.index()] |= d.bit());
                }
                any |= !fresh.is_empty();
                level[a.index()] = fresh;
            }
            if !any {
                break;
            }
        }
        Bound { lb, downhill }
    }

    /// The bound for a robot at `cell` whose moves so far come to `axis`.
    #[inline]
    pub fn at(&self, cell: u8, axis: Axis) -> u8 {
        self.lb[usize::from(cell)][axis.index()]
    }

    /// The directions ([`Dir::bit`]) in which a move from `cell` (its moves so far: `axis`)
    /// may end on a cell whose bound is one lower, whatever robots stand in the way: they
    /// only shorten the move, along the same path.
    #[inline]
    pub fn downhill(&self, cell: u8, axis: Axis) -> u8 {
        self.downhill[usize::from(cell)][axis.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ricochet::files::quarters::from_quadrants;

    /// The bound by its definition: layer by layer, a (cell, axis) is at depth k when a move
    /// from it may stop (anywhere before the wall) on a (cell, axis) at depth k − 1.
    fn by_definition(board: &Board, goal: u8, rules: Rules) -> [[u8; 4]; CELLS] {
        let mut lb = [[NEVER; 4]; CELLS];
        for a in Axis::ALL {
            if rules.ricocheted(a) && (rules.must_ricochet || a == Axis::None) {
                lb[usize::from(goal)][a.index()] = 0;
            }
        }
        for depth in 1..40u8 {
            let mut next = Vec::new();
            for c in 0..CELLS {
                for a in Axis::ALL {
                    if lb[c][a.index()] != NEVER || (!rules.must_ricochet && a != Axis::None) {
                        continue;
                    }
                    let reaches = Dir::ALL.iter().any(|&d| {
                        let after = if rules.must_ricochet { a.after(d) } else { a };
                        let mut here = u16::try_from(c).unwrap();
                        while !board.wall(here, d) {
                            here = board.neighbour(here, d).unwrap();
                            if lb[usize::from(here)][after.index()] == depth - 1 {
                                return true;
                            }
                        }
                        false
                    });
                    if reaches {
                        next.push((c, a));
                    }
                }
            }
            for (c, a) in next {
                lb[c][a.index()] = depth;
            }
        }
        lb
    }

    #[test]
    fn the_open_sides_are_the_cells_without_a_wall_there() {
        let board = from_quadrants(&["1A", "2B", "3A", "4B"].map(String::from)).unwrap();
        let open = open_sides(&board.walls);
        for c in 0..CELLS {
            for d in Dir::ALL {
                let cell = u16::try_from(c).unwrap();
                let set = open[d as usize].0[c / 128] >> (c % 128) & 1 == 1;
                assert_eq!(set, !board.wall(cell, d), "cell {c} {d:?}");
            }
        }
    }

    #[test]
    fn the_sweep_over_sets_gives_the_bound_of_its_definition() {
        for (quarters, goal) in [
            (["1A", "2B", "3A", "4B"], 0x93u8),
            (["4B", "3B", "2B", "1A"], 0x2E),
        ] {
            let board = from_quadrants(&quarters.map(String::from)).unwrap();
            for must_ricochet in [false, true] {
                let rules = Rules {
                    must_ricochet,
                    no_single_move: false,
                };
                let fast = Bound::new(&board, goal, rules);
                assert!(
                    fast.lb == by_definition(&board, goal, rules),
                    "{quarters:?} {rules:?}"
                );
                assert_downhill_by_definition(&board, &fast, rules);
            }
        }
    }

    /// [`Bound::downhill`] by its definition: a direction is set when a cell on its path
    /// (walls only) has a bound one lower with the axis after the move.
    fn assert_downhill_by_definition(board: &Board, b: &Bound, rules: Rules) {
        let mut set = 0;
        for c in 0..CELLS {
            for a in Axis::ALL {
                let k = b.lb[c][a.index()];
                let mut want = 0u8;
                for d in Dir::ALL {
                    let after = if rules.must_ricochet { a.after(d) } else { a };
                    let mut here = u16::try_from(c).unwrap();
                    while !board.wall(here, d) {
                        here = board.neighbour(here, d).unwrap();
                        let there = b.lb[usize::from(here)][after.index()];
                        if k != NEVER && k > 0 && there == k - 1 {
                            want |= d.bit();
                        }
                    }
                }
                if !rules.must_ricochet && a != Axis::None {
                    want = 0;
                }
                let cell = u8::try_from(c).unwrap();
                assert_eq!(b.downhill(cell, a), want, "cell {c} {a:?} {rules:?}");
                set += usize::from(want != 0);
            }
        }
        assert!(set > 100, "{set}");
    }
}
