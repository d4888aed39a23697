//! The big tier for standard positions without R-B1 (the hard 24- and 25-move positions of `bench.rs`): breadth-first
//! search over states (active robot, helpers as an unordered set): 256 × C(256, 3) =
//! 707,461,120 states, one bit each in a visited set (88 MB), claimed with an atomic `fetch_or`
//! so levels are expanded on every core. Each level's states are kept, sorted (a 25-move search
//! keeps about 21 million, 84 MB): the path is walked back from the goal by trying, for each
//! robot, the cells it could have come from along its row and column, and keeping the one found
//! in the level before.

use super::board::Dir;
use super::position::Position;
use super::solution::{Meter, NoSolution, Solution, relabel};
use super::standard::{
    Packed, STATES, Tables, layouts, pack, sort3, start_and_goal, successors, unpack,
};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};

/// States kept here per state of the budget: 4 bytes each, where the general search keeps
/// about 150 bytes a state (the visited set is the same 88 MB whatever the budget).
const PER_STATE: usize = 16;

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

/// Fewest moves (R-B1 off: the caller sends only such positions), up to `max`. The states
/// kept in the levels count against the budget once per chunk of the frontier ([`PER_STATE`]
/// of them for one state of the budget), and are charged to `meter` once per level.
pub fn search(
    p: &Position,
    t: &Tables,
    max: u32,
    meter: &mut Meter,
) -> Result<Solution, NoSolution> {
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
    // The moves made on reaching the level being built: `levels.len()`.
    let mut depth: u32 = 1;
    // The smallest goal state of the level, so that the answer does not depend on which
    // thread got there first.
    let goal_state = AtomicU32::new(u32::MAX);
    let budget = usize::try_from(meter.budget().max_states)
        .unwrap_or(usize::MAX)
        .saturating_mul(PER_STATE);
    // The states kept: every level, and the one being built.
    let held = AtomicUsize::new(1);
    let over = AtomicBool::new(false);
    while levels.last().is_some_and(|l| !l.is_empty()) && depth <= max {
        let frontier = levels.last().expect("non-empty");
        let arrival_counts = p.rules.counts(depth);
        let chunks: Vec<Vec<Packed>> = frontier
            .par_chunks(1 << 14)
            .map(|chunk| {
                let mut next = Vec::new();
                if over.load(Ordering::Relaxed) {
                    return next;
                }
                for &s in chunk {
                    successors(t, s, &mut |n, active| {
                        let at_goal = active.is_some_and(|(_, to)| to == goal);
                        if at_goal && arrival_counts {
                            goal_state.fetch_min(n, Ordering::Relaxed);
                        } else if visited.claim(t.index(n)) {
                            next.push(n);
                        }
                    });
                }
                if held.fetch_add(next.len(), Ordering::Relaxed) + next.len() >= budget {
                    over.store(true, Ordering::Relaxed);
                }
                next
            })
            .collect();
        // Before the goal: a level cut short by the budget may have missed a smaller goal
        // state, and the answer must not depend on the threads.
        meter.charge(held.load(Ordering::Relaxed) / PER_STATE)?;
        let g = goal_state.load(Ordering::Relaxed);
        if g != u32::MAX {
            let states = walk_back(t, &levels, g);
            return Ok(Solution {
                moves: depth,
                solution: relabel(p, &layouts(&states)),
            });
        }
        let mut next = chunks.concat();
        next.par_sort_unstable();
        levels.push(next);
        depth += 1;
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
