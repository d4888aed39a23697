//! The fast solver for standard positions: a 16×16 board without diagonals, four robots, a
//! coloured target. It searches in two tiers. Most positions are answered by a sequential A*
//! over 64-bit states (the four cells, and the active robot's axis for R-B1), guided by a lower
//! bound on the active robot's own moves. A search that outgrows it without R-B1 (the hard positions) is
//! restarted in the big tier:
//!
//! Breadth-first search over states (active robot, helpers as an unordered set): 256 ×
//! C(256, 3) = 707,461,120 states, one bit each in a visited set (88 MB), claimed with an atomic
//! `fetch_or` so levels are expanded on every core. Each level's states are kept, sorted (a
//! 25-move search keeps about 21 million, 84 MB): the path is walked back from the goal by
//! trying, for each robot, the cells it could have come from along its row and column, and
//! keeping the one found in the level before.

use super::board::{Cell, Colour, Dir};
use super::position::Position;
use super::solve::{NoSolution, Solution};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

const CELLS: usize = 256;
const HELPER_SETS: usize = CELLS * (CELLS - 1) * (CELLS - 2) / 6;
const STATES: usize = CELLS * HELPER_SETS;

/// Whether the fast solver can answer this position exactly.
pub fn applies(p: &Position) -> bool {
    p.board.width == 16
        && p.board.height == 16
        && p.robots.len() == 4
        && p.goal.robot.is_some()
        && p.board.diagonals.iter().all(Option::is_none)
        && p.robots.iter().all(|(c, _)| *c != Colour::Transparent)
}

/// States the small tier may hold before a search without R-B1 moves to the big tier.
const SMALL_LIMIT: usize = 250_000;

/// A state packed in 32 bits: active robot, then the three helpers in increasing order.
type Packed = u32;

fn pack(a: u8, h: [u8; 3]) -> Packed {
    u32::from(a) << 24 | u32::from(h[0]) << 16 | u32::from(h[1]) << 8 | u32::from(h[2])
}

fn unpack(s: Packed) -> (u8, [u8; 3]) {
    ((s >> 24) as u8, [(s >> 16) as u8, (s >> 8) as u8, s as u8])
}

fn sort3(mut h: [u8; 3]) -> [u8; 3] {
    if h[0] > h[1] {
        h.swap(0, 1);
    }
    if h[1] > h[2] {
        h.swap(1, 2);
    }
    if h[0] > h[1] {
        h.swap(0, 1);
    }
    h
}

struct Tables {
    /// Where a robot stops from each cell and direction, walls only.
    stop: [[u8; 4]; CELLS],
    /// Binomial coefficients C(n, 2) and C(n, 3), for the index of a helper set.
    c2: [u32; CELLS],
    c3: [u32; CELLS],
}

impl Tables {
    fn new(p: &Position) -> Tables {
        let b = &p.board;
        let mut stop = [[0u8; 4]; CELLS];
        for (c, row) in stop.iter_mut().enumerate() {
            for d in Dir::ALL {
                let end = super::moves::slide(b, c as Cell, Colour::Red, d, &|_| false)
                    .unwrap_or(c as Cell);
                row[d as usize] = end as u8;
            }
        }
        let mut c2 = [0u32; CELLS];
        let mut c3 = [0u32; CELLS];
        for n in 0..CELLS as u32 {
            c2[n as usize] = n * n.saturating_sub(1) / 2;
            c3[n as usize] = n * n.saturating_sub(1) * n.saturating_sub(2) / 6;
        }
        Tables { stop, c2, c3 }
    }

    fn index(&self, s: Packed) -> usize {
        let (a, h) = unpack(s);
        usize::from(a) * HELPER_SETS
            + (u32::from(h[0]) + self.c2[usize::from(h[1])] + self.c3[usize::from(h[2])]) as usize
    }

    /// Where a robot at `from` stops going `d`, the other robots at `others`.
    fn slide(&self, from: u8, d: Dir, others: [u8; 3]) -> u8 {
        let wall = self.stop[usize::from(from)][d as usize];
        let (fx, fy) = (from % 16, from / 16);
        let mut end = wall;
        for o in others {
            let (ox, oy) = (o % 16, o / 16);
            // A robot on the way, nearer than the current end, stops us just before it.
            let before = match d {
                Dir::E if oy == fy && ox > fx && ox <= end % 16 => o - 1,
                Dir::W if oy == fy && ox < fx && ox >= end % 16 => o + 1,
                Dir::S if ox == fx && oy > fy && oy <= end / 16 => o - 16,
                Dir::N if ox == fx && oy < fy && oy >= end / 16 => o + 16,
                _ => continue,
            };
            end = before;
        }
        end
    }
}

/// One visited bit per state, shared by the threads.
struct Visited(Vec<AtomicU64>);

impl Visited {
    /// Marks the state; `true` if this call was the first.
    fn claim(&self, i: usize) -> bool {
        let bit = 1u64 << (i % 64);
        let word = &self.0[i / 64];
        word.load(Ordering::Relaxed) & bit == 0 && word.fetch_or(bit, Ordering::Relaxed) & bit == 0
    }
}

/// Every state one move from `s`, with whether the active robot is now on `goal`.
fn successors(t: &Tables, s: Packed, goal: u8, out: &mut impl FnMut(Packed, bool)) {
    let (a, h) = unpack(s);
    for d in Dir::ALL {
        let to = t.slide(a, d, h);
        if to != a {
            out(pack(to, h), to == goal);
        }
        for k in 0..3 {
            let others = [a, h[(k + 1) % 3], h[(k + 2) % 3]];
            let to = t.slide(h[k], d, others);
            if to != h[k] {
                let mut nh = h;
                nh[k] = to;
                out(pack(a, sort3(nh)), false);
            }
        }
    }
}

pub fn solve(p: &Position, max: u32) -> Result<Solution, NoSolution> {
    let t = Tables::new(p);
    match small(p, &t, max) {
        Some(answer) => answer,
        None => big(p, &t, max),
    }
}

/// The start state (active robot, sorted helpers) and the goal cell.
fn start_and_goal(p: &Position) -> (Packed, u8) {
    let target = p.goal.robot.expect("applies() requires a coloured target");
    let a = p
        .robot_cell(target)
        .expect("the target robot is on the board") as u8;
    let h: Vec<u8> = p
        .robots
        .iter()
        .filter(|(c, _)| *c != target)
        .map(|(_, c)| *c as u8)
        .collect();
    (pack(a, sort3([h[0], h[1], h[2]])), p.goal.cell as u8)
}

/// A small-tier state: the packed cells, and (bits 32–33) the active robot's axis so far.
type Wide = u64;

fn wide(s: Packed, axis: u8) -> Wide {
    u64::from(s) | u64::from(axis) << 32
}

/// A multiplicative hash: states are already well spread, and this is the hot loop.
#[derive(Default, Clone, Copy)]
struct Mix(u64);

impl std::hash::Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (n ^ n >> 29).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type MixState = std::hash::BuildHasherDefault<Mix>;

/// A lower bound on the active robot's remaining moves, per cell and axis state: its moves
/// alone, allowed to stop anywhere before a wall (a helper could be there), and, under R-B1,
/// owing the turn it has not made yet. `u8::MAX`: it can never get there.
fn lower_bounds(p: &Position, t: &Tables) -> Vec<[u8; 4]> {
    use super::solve::{TURNED, axis_after};
    let goal = p.goal.cell as usize;
    let r_b1 = p.rules.must_ricochet;
    // The cells a move from `c` going `d` may stop on, if helpers stood in the way: every cell
    // up to the wall stop.
    let reach = |c: usize, d: Dir| -> Vec<usize> {
        let stop = usize::from(t.stop[c][d as usize]);
        let step: isize = match d {
            Dir::N => -16,
            Dir::S => 16,
            Dir::E => 1,
            Dir::W => -1,
        };
        let mut out = Vec::new();
        let mut here = c as isize;
        while here as usize != stop {
            here += step;
            out.push(here as usize);
        }
        out
    };
    let mut lb = vec![[u8::MAX; 4]; CELLS];
    for axis in 0..4u8 {
        if !r_b1 || axis == TURNED {
            lb[goal][usize::from(axis)] = 0;
        }
    }
    // Layer by layer: (c, before) is at depth k if a move from it reaches a state at k − 1.
    let mut depth = 0u8;
    loop {
        depth += 1;
        let mut next = Vec::new();
        for c in 0..CELLS {
            if p.board.blocked[c] {
                continue;
            }
            for before in 0..4u8 {
                if lb[c][usize::from(before)] != u8::MAX {
                    continue;
                }
                let reaches = Dir::ALL.iter().any(|&d| {
                    let after = if r_b1 { axis_after(before, d) } else { before };
                    reach(c, d)
                        .into_iter()
                        .any(|c2| lb[c2][usize::from(after)] == depth - 1)
                });
                if reaches {
                    next.push((c, before));
                }
            }
        }
        if next.is_empty() {
            break;
        }
        for (c, before) in next {
            lb[c][usize::from(before)] = depth;
        }
    }
    lb
}

/// The small tier: A* with [`lower_bounds`] (consistent: a helper move leaves the bound as
/// it is, an active move lowers it by one at most), a bucket per f = g + h, and parent links
/// for the path. `None` when it outgrew its limit without R-B1 (the big tier takes over).
fn small(p: &Position, t: &Tables, max: u32) -> Option<Result<Solution, NoSolution>> {
    use super::solve::{TURNED, axis_after};
    let rules = p.rules;
    let lb = lower_bounds(p, t);
    let (start, goal) = start_and_goal(p);
    let start = wide(start, 0);
    let h = |w: Wide| lb[usize::from(unpack(w as Packed).0)][((w >> 32) & 3) as usize];
    if h(start) == u8::MAX {
        return Some(Err(NoSolution::Limit(max)));
    }
    // Each state: its g and the state it came from.
    let mut seen: std::collections::HashMap<Wide, (u8, Wide), MixState> =
        std::collections::HashMap::default();
    seen.insert(start, (0, start));
    let mut buckets: Vec<Vec<Wide>> = vec![Vec::new(); usize::from(h(start)) + 1];
    buckets[usize::from(h(start))].push(start);
    let mut best: Option<(u32, Wide, Wide)> = None;
    let mut f = usize::from(h(start));
    while f < buckets.len() && f as u32 <= max {
        if best.is_some_and(|b| b.0 as usize <= f) {
            break;
        }
        let Some(w) = buckets[f].pop() else {
            f += 1;
            continue;
        };
        let g = seen[&w].0;
        if usize::from(g) + usize::from(h(w)) != f {
            continue; // Reached again more cheaply since it was queued.
        }
        let axis = (w >> 32) as u8;
        let (a, hs) = unpack(w as Packed);
        let mut next: Vec<(Wide, bool)> = Vec::with_capacity(16);
        for d in Dir::ALL {
            let to = t.slide(a, d, hs);
            if to != a {
                let na = if rules.must_ricochet {
                    axis_after(axis, d)
                } else {
                    0
                };
                let arrives = to == goal
                    && (!rules.must_ricochet || na == TURNED)
                    && (!rules.no_single_move || g >= 1);
                next.push((wide(pack(to, hs), na), arrives));
            }
            for k in 0..3 {
                let others = [a, hs[(k + 1) % 3], hs[(k + 2) % 3]];
                let to = t.slide(hs[k], d, others);
                if to != hs[k] {
                    let mut nh = hs;
                    nh[k] = to;
                    next.push((wide(pack(a, sort3(nh)), axis), false));
                }
            }
        }
        let ng = g + 1;
        for (n, arrives) in next {
            if arrives {
                if best.is_none_or(|b| u32::from(ng) < b.0) {
                    best = Some((u32::from(ng), n, w));
                }
                continue;
            }
            let hn = h(n);
            if hn == u8::MAX || u32::from(ng) + u32::from(hn) > max {
                continue;
            }
            if seen.get(&n).is_none_or(|e| e.0 > ng) {
                seen.insert(n, (ng, w));
                let slot = usize::from(ng) + usize::from(hn);
                if buckets.len() <= slot {
                    buckets.resize(slot + 1, Vec::new());
                }
                buckets[slot].push(n);
            }
        }
        if !rules.must_ricochet && seen.len() > SMALL_LIMIT {
            return None;
        }
    }
    let Some((moves, arrived, before)) = best else {
        return Some(Err(NoSolution::Limit(max)));
    };
    let mut states = vec![arrived as Packed, before as Packed];
    let mut here = before;
    while here != start {
        here = seen[&here].1;
        states.push(here as Packed);
    }
    states.reverse();
    Some(Ok(Solution {
        moves,
        solution: super::solve::relabel(p, &layouts(&states)),
    }))
}

fn layouts(states: &[Packed]) -> Vec<[Cell; 6]> {
    states
        .iter()
        .map(|&s| {
            let (a, h) = unpack(s);
            [
                Cell::from(a),
                Cell::from(h[0]),
                Cell::from(h[1]),
                Cell::from(h[2]),
                0,
                0,
            ]
        })
        .collect()
}

/// The big tier (no R-B1).
fn big(p: &Position, t: &Tables, max: u32) -> Result<Solution, NoSolution> {
    let (start, goal) = start_and_goal(p);
    if unpack(start).0 == goal {
        return Ok(Solution {
            moves: 0,
            solution: Vec::new(),
        });
    }
    let visited = Visited(
        (0..STATES.div_ceil(64))
            .map(|_| AtomicU64::new(0))
            .collect(),
    );
    visited.claim(t.index(start));
    let mut levels: Vec<Vec<Packed>> = vec![vec![start]];
    // The smallest goal state of the level, so that the answer does not depend on which
    // thread got there first.
    let goal_state = AtomicU32::new(u32::MAX);
    while levels.last().is_some_and(|l| !l.is_empty()) && (levels.len() as u32) <= max {
        let frontier = levels.last().expect("non-empty");
        let chunks: Vec<Vec<Packed>> = frontier
            .par_chunks(1 << 14)
            .map(|chunk| {
                let mut next = Vec::new();
                for &s in chunk {
                    successors(t, s, goal, &mut |n, at_goal| {
                        if at_goal && (!p.rules.no_single_move || levels.len() >= 2) {
                            goal_state.fetch_min(n, Ordering::Relaxed);
                        } else if visited.claim(t.index(n)) {
                            next.push(n);
                        }
                    });
                }
                next
            })
            .collect();
        let g = goal_state.load(Ordering::Relaxed);
        if g != u32::MAX {
            let depth = levels.len() as u32;
            let states = walk_back(t, &levels, g);

            return Ok(Solution {
                moves: depth,
                solution: super::solve::relabel(p, &layouts(&states)),
            });
        }
        let mut next = chunks.concat();
        next.par_sort_unstable();
        levels.push(next);
    }
    Err(NoSolution::Limit(max))
}

/// The states from the start to `goal`, which is one move past the last level: each step
/// back takes a predecessor found in the level before.
fn walk_back(t: &Tables, levels: &[Vec<Packed>], goal: Packed) -> Vec<Packed> {
    let mut path = vec![goal];
    let mut here = goal;
    for level in levels.iter().rev() {
        let prev = predecessors(t, here)
            .into_iter()
            .find(|p| level.binary_search(p).is_ok());
        here = prev.expect("a state of one level has a predecessor in the level before");
        path.push(here);
    }
    path.reverse();
    path
}

/// States from which one move leads to `s`: one robot put back somewhere along its row or
/// column, checked by playing the move forward.
fn predecessors(t: &Tables, s: Packed) -> Vec<Packed> {
    let (a, h) = unpack(s);
    let all = [a, h[0], h[1], h[2]];
    let mut out = Vec::new();
    for (r, &cell) in all.iter().enumerate() {
        let (x, y) = (cell % 16, cell / 16);
        for q in 0..=255u8 {
            if q == cell || (q % 16 != x && q / 16 != y) || all.contains(&q) {
                continue;
            }
            let mut before = all;
            before[r] = q;
            let others: Vec<u8> = (0..4).filter(|&i| i != r).map(|i| before[i]).collect();
            if Dir::ALL
                .iter()
                .any(|&d| t.slide(q, d, [others[0], others[1], others[2]]) == cell)
            {
                out.push(pack(before[0], sort3([before[1], before[2], before[3]])));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ricochet::board::from_quadrants;
    use crate::ricochet::position::{Goal, Position, Rules};
    use std::sync::Arc;

    #[test]
    fn agrees_with_the_general_search_on_short_positions() {
        let board = Arc::new(
            from_quadrants(&["1A".into(), "2A".into(), "3A".into(), "4A".into()]).unwrap(),
        );
        let mut checked = 0;
        for (i, t) in board
            .targets
            .iter()
            .enumerate()
            .filter(|(_, t)| t.colour.is_some())
            .take(8)
        {
            let cells = [
                (i * 37 + 3) % 256,
                (i * 53 + 100) % 256,
                (i * 11 + 200) % 256,
                (i * 71 + 31) % 256,
            ];
            if cells.iter().any(|&c| board.blocked[c]) {
                continue;
            }
            let robots: Vec<(Colour, Cell)> =
                [Colour::Red, Colour::Green, Colour::Blue, Colour::Yellow]
                    .into_iter()
                    .zip(cells.map(|c| c as Cell))
                    .collect();
            let p = Position {
                board: Arc::clone(&board),
                robots,
                goal: Goal {
                    cell: t.cell,
                    robot: t.colour,
                },
                rules: Rules {
                    must_ricochet: false,
                    no_single_move: false,
                },
            };
            let slow = crate::ricochet::solve::general(&p, 9);
            let fast = solve(&p, 9);
            assert_eq!(
                slow.as_ref().map(|s| s.moves),
                fast.as_ref().map(|s| s.moves),
                "target {i}"
            );
            if let Ok(s) = fast {
                assert_eq!(crate::ricochet::solve::check(&p, &s.solution), Ok(s.moves));
            }
            checked += 1;
        }
        assert!(checked >= 5);
    }
}
