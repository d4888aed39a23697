//! Standard positions: a 16×16 board without diagonals, four robots, a coloured target. Their
//! states pack into 32 bits (the active robot's cell, then the three helpers' cells in
//! increasing order); wall stops are tabled, and one successor generator serves both search
//! tiers ([`super::astar`], [`super::parallel_bfs`]).

use crate::ricochet::board::{Cell, Colour, Dir};
use crate::ricochet::position::{Move, Position};

pub const CELLS: usize = 256;
pub const HELPER_SETS: usize = CELLS * (CELLS - 1) * (CELLS - 2) / 6;
pub const STATES: usize = CELLS * HELPER_SETS;

/// Whether the standard searches can answer this position exactly.
pub fn applies(p: &Position) -> bool {
    p.goal.robot.is_some() && applies_to_any(p)
}

/// Whether the standard searches can answer this position for each robot in turn: all but
/// the coloured target ([`applies`]); the vortex is answered so (`solve.rs`).
pub fn applies_to_any(p: &Position) -> bool {
    p.board.width == 16
        && p.board.height == 16
        && p.robots.len() == 4
        && p.board.diagonals.iter().all(Option::is_none)
        && p.robots.iter().all(|(c, _)| *c != Colour::Transparent)
}

/// A cell of a 16×16 board, as a byte.
fn byte(c: Cell) -> u8 {
    u8::try_from(c).expect("a cell of a 16×16 board fits a byte")
}

/// A state packed in 32 bits: active robot, then the three helpers in increasing order.
pub type Packed = u32;

pub fn pack(a: u8, h: [u8; 3]) -> Packed {
    u32::from_be_bytes([a, h[0], h[1], h[2]])
}

pub fn unpack(s: Packed) -> (u8, [u8; 3]) {
    let [a, h0, h1, h2] = s.to_be_bytes();
    (a, [h0, h1, h2])
}

pub fn sort3(h: [u8; 3]) -> [u8; 3] {
    // Without branches: the order of random states is not predictable.
    let (lo, hi) = (h[0].min(h[1]), h[0].max(h[1]));
    [lo.min(h[2]), lo.max(hi.min(h[2])), hi.max(h[2])]
}

pub struct Tables {
    /// Where a robot stops from each cell and direction, walls only.
    pub stop: [[u8; 4]; CELLS],
    /// The target's cell.
    pub goal: u8,
}

impl Tables {
    pub fn new(p: &Position) -> Tables {
        let b = &p.board;
        let mut stop = [[0u8; 4]; CELLS];
        // One sweep per row or column and direction, from the edge the robot slides to: a
        // cell walled on that side stops there, any other where its neighbour stops.
        for d in Dir::ALL {
            for line in 0..16u8 {
                for k in 0..16u8 {
                    let (c, next) = match d {
                        Dir::E => (line * 16 + 15 - k, 1i16),
                        Dir::W => (line * 16 + k, -1),
                        Dir::S => ((15 - k) * 16 + line, 16),
                        Dir::N => (k * 16 + line, -16),
                    };
                    stop[usize::from(c)][d as usize] = if b.wall(Cell::from(c), d) {
                        c
                    } else {
                        let n = usize::try_from(i16::from(c) + next).expect("no wall: inside");
                        stop[n][d as usize]
                    };
                }
            }
        }
        Tables {
            stop,
            goal: byte(p.goal.cell),
        }
    }

    /// The state's index among all [`STATES`].
    pub fn index(&self, s: Packed) -> usize {
        let (a, h) = unpack(s);
        // The helpers' cells in increasing order: h0 + C(h1, 2) + C(h2, 3).
        let (h1, h2) = (u32::from(h[1]), u32::from(h[2]));
        let set = u32::from(h[0])
            + h1 * h1.saturating_sub(1) / 2
            + h2 * h2.saturating_sub(1) * h2.saturating_sub(2) / 6;
        usize::from(a) * HELPER_SETS + usize::try_from(set).expect("a helper set index fits")
    }

    /// Where a robot at `from` stops going `d`, the other robots at `others`.
    #[inline]
    pub fn slide(&self, from: u8, d: Dir, others: [u8; 3]) -> u8 {
        let mut end = self.stop[usize::from(from)][d as usize];
        // A robot on the way, nearer than the current end, stops us just before it: without
        // branches, as the robots of random states fall anywhere. The end lies on the
        // robot's row or column, so along a row the order of cells says all.
        let column = |o: u8| (o ^ from) & 15 == 0;
        for o in others {
            end = match d {
                Dir::E => select((from < o) & (o <= end), o.wrapping_sub(1), end),
                Dir::W => select((o < from) & (end <= o), o.wrapping_add(1), end),
                Dir::S => select(column(o) & (from < o) & (o <= end), o.wrapping_sub(16), end),
                Dir::N => select(column(o) & (o < from) & (end <= o), o.wrapping_add(16), end),
            };
        }
        end
    }
}

/// The robots of a state as bits: per row, the columns they stand on; per column, the rows.
/// A slide then finds the nearest robot on its way by one bit scan ([`Tables::slide_by`]).
#[derive(Clone, Copy)]
pub struct Robots {
    rows: [u16; 16],
    columns: [u16; 16],
}

impl Robots {
    #[inline(always)]
    pub fn of(cells: [u8; 4]) -> Robots {
        let mut r = Robots {
            rows: [0; 16],
            columns: [0; 16],
        };
        for c in cells {
            r.rows[usize::from(c >> 4)] |= 1 << (c & 15);
            r.columns[usize::from(c & 15)] |= 1 << (c >> 4);
        }
        r
    }
}

impl Tables {
    /// [`Tables::slide`] with the robots as bits (the moving one among them or not: only
    /// those strictly on its way count), the nearest on the way found by a bit scan.
    #[inline(always)]
    pub fn slide_by(&self, from: u8, d: Dir, robots: &Robots) -> u8 {
        let stop = u32::from(self.stop[usize::from(from)][d as usize]);
        let (row, column) = (usize::from(from >> 4), u32::from(from & 15));
        let col = usize::from(from & 15);
        let line = u32::from(from >> 4);
        let f = u32::from(from);
        // Ahead: the robots on the way, the nearest at bit 0 (E, S) or bit 15 (W, N); none
        // gives a distance past the board's edge, beyond the wall stop.
        let end = match d {
            Dir::E => stop.min(f + (u32::from(robots.rows[row]) >> (column + 1)).trailing_zeros()),
            Dir::W => {
                let ahead = (u32::from(robots.rows[row]) << (16 - column)) & 0xFFFF;
                stop.max(f.saturating_sub(ahead.leading_zeros() - 16))
            }
            Dir::S => {
                let ahead = u32::from(robots.columns[col]) >> (line + 1);
                stop.min(f + 16 * ahead.trailing_zeros())
            }
            Dir::N => {
                let ahead = (u32::from(robots.columns[col]) << (16 - line)) & 0xFFFF;
                stop.max(f.saturating_sub(16 * (ahead.leading_zeros() - 16)))
            }
        };
        u8::try_from(end).unwrap_or(from)
    }
}

/// `a` if `c`, else `b`, without a branch.
#[inline]
fn select(c: bool, a: u8, b: u8) -> u8 {
    let m = u8::from(c).wrapping_neg();
    (a & m) | (b & !m)
}

/// Every state one move from `s`, in a fixed order (per direction N, E, S, W: the active
/// robot, then each helper). `out` gets the state, when the active robot moved the direction
/// and the cell it stopped on, and the cells the moving robot left and entered.
#[inline]
pub fn successors(
    t: &Tables,
    s: Packed,
    out: &mut impl FnMut(Packed, Option<(Dir, u8)>, (u8, u8)),
) {
    successors_of(t, s, true, out);
}

/// [`successors`], the helpers' moves only if `helpers`.
#[inline]
pub fn successors_of(
    t: &Tables,
    s: Packed,
    helpers: bool,
    out: &mut impl FnMut(Packed, Option<(Dir, u8)>, (u8, u8)),
) {
    let (a, h) = unpack(s);
    let robots = Robots::of([a, h[0], h[1], h[2]]);
    for d in Dir::ALL {
        let to = t.slide_by(a, d, &robots);
        if to != a {
            out(pack(to, h), Some((d, to)), (a, to));
        }
        if !helpers {
            continue;
        }
        for k in 0..3 {
            let to = t.slide_by(h[k], d, &robots);
            if to != h[k] {
                let mut nh = h;
                nh[k] = to;
                out(pack(a, sort3(nh)), None, (h[k], to));
            }
        }
    }
}

/// The start state (active robot, sorted helpers) and the goal cell.
pub fn start_and_goal(p: &Position) -> (Packed, u8) {
    let target = p.goal.robot.expect("applies() requires a coloured target");
    let a = byte(
        p.robot_cell(target)
            .expect("the target robot is on the board"),
    );
    let h: Vec<u8> = p
        .robots
        .iter()
        .filter(|(c, _)| *c != target)
        .map(|(_, c)| byte(*c))
        .collect();
    (pack(a, sort3([h[0], h[1], h[2]])), byte(p.goal.cell))
}

/// The moves of a path of states: between two states, the robot on the one cell left moves
/// towards the one cell entered (its row or column). Without replaying them: each step of a
/// found path is a legal move, and on a standard board no robot is transparent.
pub fn moves_of(p: &Position, states: &[Packed]) -> Vec<Move> {
    let mut robots: Vec<(Colour, u8)> = p.robots.iter().map(|&(c, cell)| (c, byte(cell))).collect();
    let cells = |s: Packed| {
        let (a, h) = unpack(s);
        [a, h[0], h[1], h[2]]
    };
    states
        .windows(2)
        .map(|w| {
            let (before, after) = (cells(w[0]), cells(w[1]));
            let (&left, &entered) = before
                .iter()
                .find(|c| !after.contains(c))
                .zip(after.iter().find(|c| !before.contains(c)))
                .expect("each step of a found path moves one robot");
            let dir = if left / 16 == entered / 16 {
                if entered > left { Dir::E } else { Dir::W }
            } else if entered > left {
                Dir::S
            } else {
                Dir::N
            };
            let mut robot = Colour::Red;
            for r in &mut robots {
                if r.1 == left {
                    *r = (r.0, entered);
                    robot = r.0;
                }
            }
            Move {
                robot,
                dir,
                to: None,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_pack_and_index_one_to_one() {
        let s = pack(200, [3, 17, 255]);
        assert_eq!(unpack(s), (200, [3, 17, 255]));
        assert_eq!(sort3([9, 2, 5]), [2, 5, 9]);
    }

    /// A slide with the robots as bits ends where the plain one does: every robot of random
    /// states of random boards, every direction.
    #[test]
    fn a_slide_by_bits_is_the_plain_slide() {
        use crate::ricochet::rules::Rules;
        let mut moved = 0;
        for seed in 1..=40 {
            let p = crate::ricochet::files::random_id(seed, 4)
                .position(Rules::default())
                .unwrap();
            let t = Tables::new(&p);
            // Random distinct cells (a small LCG), some next to each other, off the walls'
            // stops or on them.
            let mut x = seed.wrapping_mul(2_654_435_761) | 1;
            for _ in 0..300 {
                let mut cells = [0u8; 4];
                let mut n = 0;
                while n < 4 {
                    x = x
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    let c = u8::try_from(x >> 56).unwrap();
                    let c = if n > 0 && x & 3 == 0 {
                        cells[n - 1].wrapping_add(1)
                    } else {
                        c
                    };
                    if !cells[..n].contains(&c) {
                        cells[n] = c;
                        n += 1;
                    }
                }
                let robots = Robots::of(cells);
                for k in 0..4 {
                    let others = [cells[(k + 1) % 4], cells[(k + 2) % 4], cells[(k + 3) % 4]];
                    for d in Dir::ALL {
                        let plain = t.slide(cells[k], d, others);
                        assert_eq!(
                            t.slide_by(cells[k], d, &robots),
                            plain,
                            "{cells:?} {k} {d:?}"
                        );
                        moved += usize::from(plain != cells[k]);
                    }
                }
            }
        }
        assert!(moved > 10_000, "{moved}");
    }

    /// The moves read off a path are those found by replaying each step (`relabel`).
    #[test]
    fn the_moves_of_a_path_are_those_of_its_replay() {
        use crate::ricochet::rules::Rules;
        let mut checked = 0;
        for seed in 1..=60 {
            let p = crate::ricochet::files::random_id(seed, 4)
                .position(Rules::default())
                .unwrap();
            if !applies(&p) {
                continue;
            }
            let Ok(s) = crate::ricochet::solve::solve(&p, 12) else {
                continue;
            };
            let mut pos = p.clone();
            let mut states = Vec::new();
            let (start, _) = start_and_goal(&pos);
            states.push(start);
            for m in &s.solution {
                pos.play(*m).unwrap();
                states.push(start_and_goal(&pos).0);
            }
            let layouts: Vec<[Cell; 6]> = states
                .iter()
                .map(|&st| {
                    let (a, h) = unpack(st);
                    [a, h[0], h[1], h[2], 0, 0].map(Cell::from)
                })
                .collect();
            let replayed = crate::ricochet::solve::solution::relabel(&p, &layouts);
            assert_eq!(moves_of(&p, &states), replayed, "seed {seed}");
            assert_eq!(replayed, s.solution, "seed {seed}");
            checked += 1;
        }
        assert!(checked >= 30, "{checked}");
    }
}
