//! The big tier for standard positions without R-B1 (the hard 24- and 25-move positions of `bench.rs`): breadth-first
//! search over states (active robot, helpers as an unordered set): 256 × C(256, 3) =
//! 707,461,120 states, one bit each in a visited set (88 MB), claimed with an atomic `fetch_or`
//! so levels are expanded on every core. Each level's states are kept, sorted (a 25-move search
//! keeps about 21 million, 84 MB): the path is walked back from the goal by trying, for each
//! robot, the cells it could have come from along its row and column, and keeping the one found
//! in the level before. Once a level holds a state from which the robot finishes alone (in its
//! bound, or a little more on a short finish), that is an upper bound, and the levels after
//! keep only states whose bound may still beat it.

use super::astar::{ALONE_MAX, alone};
use super::bound::{Bound, NEVER};
use super::solution::{Meter, NoSolution, Solution};
use super::standard::{
    Packed, STATES, Tables, moves_of, pack, sort3, start_and_goal, successors_of, unpack,
};
use crate::parallel::prelude::*;
use crate::ricochet::board::Dir;
use crate::ricochet::position::Position;
use crate::ricochet::rules::{Axis, Rules};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};

/// States kept here per state of the budget: 4 bytes each, where the general search keeps
/// about 150 bytes a state (the visited set is the same 88 MB whatever the budget).
const PER_STATE: usize = 16;

/// One visited bit per state, shared by the threads.
struct Visited(Vec<AtomicU64>);

/// States expanded together: their successors' visited words are read before any is
/// claimed.
const BATCH: usize = 8;

impl Visited {
    /// Every state unvisited.
    fn new() -> Visited {
        Visited(
            (0..STATES.div_ceil(64))
                .map(|_| AtomicU64::new(0))
                .collect(),
        )
    }

    /// The word that holds state `i`'s bit.
    #[inline]
    fn word(&self, i: usize) -> u64 {
        self.0[i / 64].load(Ordering::Relaxed)
    }

    /// Marks the state; `true` if this call was the first.
    #[inline]
    fn claim(&self, i: usize) -> bool {
        let bit = 1u64 << (i % 64);
        let word = &self.0[i / 64];
        word.load(Ordering::Relaxed) & bit == 0 && word.fetch_or(bit, Ordering::Relaxed) & bit == 0
    }
}

/// Fewest moves (R-B1 off: the caller sends only such positions), up to `max`. The states
/// kept in the levels count against the budget once per chunk of the frontier ([`PER_STATE`]
/// of them for one state of the budget), and are charged to `meter` once per level.
///
/// Each level is also asked which of its states let the robot finish alone in its bound
/// ([`alone`]): the fewest such moves are an upper bound `u`, and from then on only states
/// that may still lead to fewer moves are kept (moves so far plus the bound below `u`).
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
    let lb = Bound::new(&p.board, goal, p.rules);
    let visited = Visited::new();
    visited.claim(t.index(start));
    let mut levels: Vec<Vec<Packed>> = vec![vec![start]];
    // The best finish alone so far: its moves, and the state it starts from (in the last
    // level when found).
    let mut upper: Option<(u32, Packed, usize)> = finish_alone(p, t, &lb, &levels[0], 0, None);
    // The moves made on reaching the level being built: `levels.len()`.
    let mut depth: u32 = 1;
    let shared = Shared {
        goal_state: AtomicU32::new(u32::MAX),
        held: AtomicUsize::new(1),
        over: AtomicBool::new(false),
        budget: usize::try_from(meter.budget().max_states)
            .unwrap_or(usize::MAX)
            .saturating_mul(PER_STATE),
    };
    while levels.last().is_some_and(|l| !l.is_empty()) {
        // The most moves a solution found from here may take.
        let limit = upper.map_or(max, |u| u.0 - 1).min(max);
        if depth > limit {
            break;
        }
        let level = Level {
            t,
            lb: &lb,
            visited: &visited,
            shared: &shared,
            goal,
            depth,
            limit,
            arrival_counts: p.rules.counts(depth),
        };
        let frontier = levels.last().expect("non-empty");
        let chunks: Vec<Vec<Packed>> = frontier
            .par_chunks(1 << 14)
            .map(|chunk| level.expand(chunk))
            .collect();
        // Before the goal: a level cut short by the budget may have missed a smaller goal
        // state, and the answer must not depend on the threads.
        meter.charge(shared.held.load(Ordering::Relaxed) / PER_STATE)?;
        let g = shared.goal_state.load(Ordering::Relaxed);
        if g != u32::MAX {
            let states = walk_back(t, &levels, g);
            return Ok(Solution {
                moves: depth,
                solution: moves_of(p, &states),
            });
        }
        let next = sorted(chunks);
        let found = finish_alone(p, t, &lb, &next, depth, upper.map(|u| u.0));
        if found.is_some() {
            upper = found.map(|(u, s, _)| (u, s, levels.len()));
        }
        levels.push(next);
        depth += 1;
    }
    match upper.filter(|u| u.0 <= max) {
        Some(u) => Ok(finished_alone(p, t, &lb, &levels, u)),
        None => Err(NoSolution::Limit(max)),
    }
}

/// What the threads of a search share across its levels.
struct Shared {
    /// The smallest goal state of the level, so that the answer does not depend on which
    /// thread got there first.
    goal_state: AtomicU32,
    /// The states kept: every level, and the one being built.
    held: AtomicUsize,
    /// Whether `held` reached the budget.
    over: AtomicBool,
    /// The states the levels may keep.
    budget: usize,
}

/// The building of one level: what every chunk of the frontier reads.
struct Level<'a> {
    t: &'a Tables,
    lb: &'a Bound,
    visited: &'a Visited,
    shared: &'a Shared,
    goal: u8,
    /// The moves made on reaching the level being built.
    depth: u32,
    /// The most moves a solution found from here may take.
    limit: u32,
    /// Whether an arrival after `depth` moves counts (R-B2).
    arrival_counts: bool,
}

impl Level<'_> {
    /// Whether the active robot at `n` may still arrive within the limit.
    #[inline]
    fn fits(&self, n: u8) -> bool {
        self.depth + u32::from(self.lb.at(n, Axis::None)) <= self.limit
    }

    /// The states first reached from a chunk of the frontier (none once the budget is over);
    /// a goal state goes to [`Shared::goal_state`].
    fn expand(&self, chunk: &[Packed]) -> Vec<Packed> {
        let mut next = Vec::new();
        if self.shared.over.load(Ordering::Relaxed) {
            return next;
        }
        // The successors of a few states, with their index and visited word.
        let mut batch: Vec<(Packed, usize, u64)> = Vec::with_capacity(16 * BATCH);
        for group in chunk.chunks(BATCH) {
            batch.clear();
            for &s in group {
                self.successors(s, &mut batch);
            }
            // Every load first, none waiting on another: their cache misses overlap.
            for e in &mut batch {
                e.2 = self.visited.word(e.1);
            }
            for &(n, i, word) in &batch {
                if word & 1 << (i % 64) == 0 && self.visited.claim(i) {
                    next.push(n);
                }
            }
        }
        let held = self.shared.held.fetch_add(next.len(), Ordering::Relaxed);
        if held + next.len() >= self.shared.budget {
            self.shared.over.store(true, Ordering::Relaxed);
        }
        next
    }

    /// The successors of `s` that may still arrive in time, with their index, into `batch`.
    #[inline]
    fn successors(&self, s: Packed, batch: &mut Vec<(Packed, usize, u64)>) {
        // A helper's move leaves the bound as it is.
        let helpers = self.fits(unpack(s).0);
        successors_of(self.t, s, helpers, &mut |n, active, _| {
            let at_goal = active.is_some_and(|(_, to)| to == self.goal);
            if at_goal && self.arrival_counts {
                self.shared.goal_state.fetch_min(n, Ordering::Relaxed);
            } else if self.fits(unpack(n).0) {
                batch.push((n, self.t.index(n), 0));
            }
        });
    }
}

/// The bits of a digit of [`sorted`]: three digits cover a state's 32 bits.
const DIGIT: u32 = 11;

/// Digit `k` of state `s`, from the lowest.
fn digit(s: Packed, k: u32) -> usize {
    (s >> (DIGIT * k) & ((1 << DIGIT) - 1)) as usize
}

/// The states of the chunks, in increasing order: a radix sort, a digit at a time from the
/// lowest, each pass scattering every state to its digit's place (the first straight from the
/// chunks). Its counts are all taken in one first reading.
fn sorted(chunks: Vec<Vec<Packed>>) -> Vec<Packed> {
    let n = chunks.iter().map(Vec::len).sum();
    // Per digit: how many states have each value, then where the first of them goes.
    let mut at = vec![[0usize; 1 << DIGIT]; 3];
    for &s in chunks.iter().flatten() {
        for (k, counts) in (0..).zip(at.iter_mut()) {
            counts[digit(s, k)] += 1;
        }
    }
    for counts in &mut at {
        let mut start = 0;
        for c in counts.iter_mut() {
            (*c, start) = (start, start + *c);
        }
    }
    let mut scatter = |from: &mut dyn Iterator<Item = Packed>, k: u32, to: &mut [Packed]| {
        let places = &mut at[k as usize];
        for s in from {
            let d = digit(s, k);
            to[places[d]] = s;
            places[d] += 1;
        }
    };
    let mut one = vec![0; n];
    scatter(&mut chunks.iter().flatten().copied(), 0, &mut one);
    drop(chunks);
    let mut two = vec![0; n];
    scatter(&mut one.iter().copied(), 1, &mut two);
    scatter(&mut two.iter().copied(), 2, &mut one);
    one
}

/// The solution through state `s` of level `level`, then the robot alone: `moves` in all.
fn finished_alone(
    p: &Position,
    t: &Tables,
    lb: &Bound,
    levels: &[Vec<Packed>],
    (moves, s, level): (u32, Packed, usize),
) -> Solution {
    let mut states = walk_back(t, &levels[..level], s);
    let (a, helpers) = unpack(s);
    let mut finish = Vec::new();
    let k = moves - u32::try_from(level).unwrap_or(u32::MAX);
    let k = u8::try_from(k).unwrap_or(u8::MAX);
    let done = alone_in(t, lb, p.rules, a, helpers, k, moves, &mut finish);
    debug_assert!(done, "the finish found before is found again");
    states.extend(finish.iter().rev().map(|&c| pack(c, helpers)));
    Solution {
        moves,
        solution: moves_of(p, &states),
    }
}

/// Moves beyond its bound a finish alone may take ([`alone_in`])…
const SLACK: u8 = 2;

/// …when it takes at most this many moves in all: longer ones cost more than they save.
const SLACK_MAX: u8 = 4;

/// Whether the active robot at `a` (R-B1 off) reaches the goal alone in exactly `k` moves,
/// the helpers `h` standing still, never stopping where its bound exceeds the moves left; its
/// cells on the way written to `path`, the last first. `moves`: the solution's length at the
/// end (R-B2). With `k` its bound, it is [`alone`]; beyond, it may pass by the goal.
#[allow(clippy::too_many_arguments)]
fn alone_in(
    t: &Tables,
    lb: &Bound,
    rules: Rules,
    a: u8,
    h: [u8; 3],
    k: u8,
    moves: u32,
    path: &mut Vec<u8>,
) -> bool {
    if k <= 1 {
        return alone(t, lb, rules, (a, Axis::None), h, k, moves, path);
    }
    for d in Dir::ALL {
        let to = t.slide(a, d, h);
        if to != a && lb.at(to, Axis::None) < k && alone_in(t, lb, rules, to, h, k - 1, moves, path)
        {
            path.push(to);
            return true;
        }
    }
    false
}

/// The fewest moves of a solution that reaches a state of `level` (after `depth` moves) and
/// then moves the robot alone ([`alone_in`]: in its bound, or a little more on a short
/// finish), if fewer than `below`; with the smallest such state.
fn finish_alone(
    p: &Position,
    t: &Tables,
    lb: &Bound,
    level: &[Packed],
    depth: u32,
    below: Option<u32>,
) -> Option<(u32, Packed, usize)> {
    let below = below.unwrap_or(u32::MAX);
    level
        .par_iter()
        .filter_map(|&s| {
            let (a, helpers) = unpack(s);
            let least = lb.at(a, Axis::None);
            if least == NEVER || least > ALONE_MAX {
                return None;
            }
            let most = if least < SLACK_MAX {
                (least + SLACK).min(SLACK_MAX)
            } else {
                least
            };
            (least..=most)
                .map(|k| (depth + u32::from(k), k))
                .take_while(|&(moves, _)| moves < below)
                .find(|&(moves, k)| alone_in(t, lb, p.rules, a, helpers, k, moves, &mut Vec::new()))
                .map(|(moves, _)| (moves, s, 0))
        })
        .min()
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
    use crate::ricochet::rules::Rules;
    use crate::ricochet::solve::solution::Budget;
    use crate::ricochet::solve::{check, general};

    /// The radix sort of the chunks gives their states in increasing order, repeats kept.
    #[test]
    fn the_levels_are_sorted_whole() {
        let mut x: u32 = 12345;
        let chunks: Vec<Vec<Packed>> = (0..7)
            .map(|n| {
                (0..n * 300)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 17;
                        x ^= x << 5;
                        x
                    })
                    .collect()
            })
            .collect();
        let mut want = chunks.concat();
        want.extend([0, u32::MAX, 7, 7]);
        let mut with_edges = chunks;
        with_edges.push(vec![0, u32::MAX, 7, 7]);
        want.sort_unstable();
        assert_eq!(sorted(with_edges), want);
        assert!(sorted(Vec::new()).is_empty());
    }

    /// Random positions without R-B1 (and with R-B2 now and then), each taken whole by the
    /// big tier: as few moves as the general search, or none within the limit as it, and
    /// the solutions check; its cut by the upper bound keeps them optimal.
    #[test]
    fn the_big_tier_agrees_with_the_general_search() {
        let mut solved = 0;
        for seed in 1..=40 {
            let id = crate::ricochet::files::random_id(seed, 4);
            let rules = Rules {
                must_ricochet: false,
                no_single_move: seed % 3 == 0,
            };
            let p = id.position(rules).unwrap();
            if !crate::ricochet::solve::standard::applies(&p) {
                continue;
            }
            let slow = general(&p, 6);
            let mut quiet = |_| {};
            let mut meter = Meter::new(Budget::default(), &mut quiet);
            let fast = search(&p, &Tables::new(&p), 6, &mut meter);
            assert_eq!(
                fast.as_ref().map(|s| s.moves),
                slow.as_ref().map(|s| s.moves),
                "{id} {rules:?}"
            );
            if let Ok(s) = fast {
                assert_eq!(check(&p, &s.solution), Ok(s.moves), "{id} {rules:?}");
                solved += 1;
            }
        }
        assert!(solved >= 20, "{solved}");
    }
}
