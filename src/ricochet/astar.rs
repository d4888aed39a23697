//! The small tier for standard positions: a sequential A* over 64-bit states (the four cells,
//! and the active robot's [`Axis`] for R-B1), guided by a lower bound on the active robot's own
//! moves. It answers most positions; one that outgrows it without R-B1 is handed to
//! [`super::parallel_bfs`].

use super::board::{Cell, Dir};
use super::bucket::BucketQueue;
use super::position::Position;
use super::rules::Axis;
use super::solution::{Meter, NoSolution, Solution, relabel};
use super::standard::{CELLS, Packed, Tables, layouts, start_and_goal, successors, unpack};
use std::collections::HashMap;

/// States the small tier may hold before a search without R-B1 moves to the big tier.
const SMALL_LIMIT: usize = 250_000;

/// A small-tier state: the packed cells (low 32 bits), and (bits 32–33) the active robot's
/// axis so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Wide(u64);

impl Wide {
    fn new(s: Packed, axis: Axis) -> Wide {
        Wide(u64::from(s) | u64::from(axis.bits()) << 32)
    }

    fn packed(self) -> Packed {
        let [a, b, c, d, ..] = self.0.to_le_bytes();
        u32::from_le_bytes([a, b, c, d])
    }

    fn axis(self) -> Axis {
        Axis::from_bits(self.0.to_le_bytes()[4])
    }
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

/// The cells a move from `c` going `d` may stop on, if helpers stood in the way: every cell
/// up to the wall stop.
fn reach(p: &Position, t: &Tables, c: usize, d: Dir) -> Vec<usize> {
    let stop = Cell::from(t.stop[c][d as usize]);
    let mut here = Cell::try_from(c).expect("a cell of a 16×16 board");
    let mut out = Vec::new();
    while here != stop {
        here = p
            .board
            .neighbour(here, d)
            .expect("the wall stop lies along the way");
        out.push(usize::from(here));
    }
    out
}

/// A lower bound on the active robot's remaining moves, per cell and axis state: its moves
/// alone, allowed to stop anywhere before a wall (a helper could be there), and, under R-B1,
/// owing the turn it has not made yet. `u8::MAX`: it can never get there.
fn lower_bounds(p: &Position, t: &Tables) -> Vec<[u8; 4]> {
    let goal = usize::from(p.goal.cell);
    let rules = p.rules;
    let mut lb = vec![[u8::MAX; 4]; CELLS];
    for axis in Axis::ALL {
        if rules.ricocheted(axis) {
            lb[goal][axis.index()] = 0;
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
            for before in Axis::ALL {
                if lb[c][before.index()] != u8::MAX {
                    continue;
                }
                let reaches = Dir::ALL.iter().any(|&d| {
                    let after = if rules.must_ricochet {
                        before.after(d)
                    } else {
                        before
                    };
                    reach(p, t, c, d)
                        .into_iter()
                        .any(|c2| lb[c2][after.index()] == depth - 1)
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
            lb[c][before.index()] = depth;
        }
    }
    lb
}

/// A* with `lower_bounds` (consistent: a helper move leaves the bound as it is, an active
/// move lowers it by one at most), a bucket per f = g + h, and parent links for the path.
/// `None` when it outgrew its limit without R-B1 (the big tier takes over). `meter` is
/// charged once per expanded state.
pub fn search(
    p: &Position,
    t: &Tables,
    max: u32,
    meter: &mut Meter,
) -> Option<Result<Solution, NoSolution>> {
    let rules = p.rules;
    let lb = lower_bounds(p, t);
    let (start, goal) = start_and_goal(p);
    let start = Wide::new(start, Axis::None);
    let h = |w: Wide| lb[usize::from(unpack(w.packed()).0)][w.axis().index()];
    if h(start) == u8::MAX {
        return Some(Err(NoSolution::Limit(max)));
    }
    // Each state: its g and the state it came from.
    let mut seen: HashMap<Wide, (u8, Wide), MixState> = HashMap::default();
    seen.insert(start, (0, start));
    let mut queue = BucketQueue::default();
    queue.push(u32::from(h(start)), start);
    let mut best: Option<(u32, Wide, Wide)> = None;
    let mut next: Vec<(Wide, bool)> = Vec::with_capacity(16);
    while let Some((f, w)) = queue.pop() {
        if f > max || best.is_some_and(|b| b.0 <= f) {
            break;
        }
        let g = seen[&w].0;
        if u32::from(g) + u32::from(h(w)) != f {
            continue; // Reached again more cheaply since it was queued.
        }
        if let Err(e) = meter.charge(seen.len()) {
            return Some(Err(e));
        }
        let axis = w.axis();
        let ng = g + 1;
        next.clear();
        successors(t, w.packed(), &mut |n, active| match active {
            Some((d, to)) => {
                let na = if rules.must_ricochet {
                    axis.after(d)
                } else {
                    Axis::None
                };
                let arrives = to == goal && rules.arrival(na, u32::from(ng));
                next.push((Wide::new(n, na), arrives));
            }
            None => next.push((Wide::new(n, axis), false)),
        });
        for &(n, arrives) in &next {
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
                queue.push(u32::from(ng) + u32::from(hn), n);
            }
        }
        if !rules.must_ricochet && seen.len() > SMALL_LIMIT {
            return None;
        }
    }
    let Some((moves, arrived, before)) = best else {
        return Some(Err(NoSolution::Limit(max)));
    };
    let mut states = vec![arrived.packed(), before.packed()];
    let mut here = before;
    while here != start {
        here = seen[&here].1;
        states.push(here.packed());
    }
    states.reverse();
    Some(Ok(Solution {
        moves,
        solution: relabel(p, &layouts(&states)),
    }))
}
