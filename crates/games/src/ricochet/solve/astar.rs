//! The small tier for standard positions: a sequential A* over 64-bit states (the four cells,
//! and the active robot's [`Axis`] for R-B1), guided by a lower bound on the active robot's own
//! moves. It answers most positions; one that outgrows it without R-B1 is handed to
//! [`super::parallel_bfs`].

use super::bound::{Bound, NEVER};
use super::bucket::BucketQueue;
use super::solution::{Meter, NoSolution, Solution};
use super::standard::{Packed, Tables, moves_of, pack, sort3, start_and_goal, successors, unpack};
use super::states::{States, Via};
use crate::ricochet::board::Dir;
use crate::ricochet::position::Position;
use crate::ricochet::rules::{Axis, Rules};

/// States the small tier may hold before a search without R-B1 moves to the big tier…
const SMALL_LIMIT: usize = 250_000;

/// …unless its f is still at most [`SHORT_F`]: then up to this many (issue 37). The 13-move
/// positions that outgrow [`SMALL_LIMIT`] finish under it, in a fifth to a half of the time
/// the big tier takes (its 88 MB visited set alone is 22,000 fresh pages). A 13-move
/// position never pops an f above 13, so a search at f 14 is a longer one, which would pay up
/// to 250,000 more states before the big tier (a quarter to a third more time): it moves at
/// once, as do the hard 24- and 25-move positions (past f 14 by then).
const SHORT_LIMIT: usize = 500_000;

/// The f up to which a search keeps the small tier up to [`SHORT_LIMIT`].
const SHORT_F: u32 = 13;

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

/// The states from `start` to `w`, each rebuilt from the next by the way it was reached.
fn path_to(seen: &States, start: Wide, w: Wide) -> Vec<Packed> {
    let mut states = vec![w.packed()];
    let mut here = w;
    while here != start {
        here = seen.get(here.0).map_or(start, |(_, via)| before(here, via));
        states.push(here.packed());
    }
    states.reverse();
    states
}

/// The way to a state: the cells the moving robot left and entered, the axis before.
fn via(left: u8, entered: u8, axis: Axis) -> Via {
    u32::from_le_bytes([left, entered, axis.bits(), 0])
}

/// The state `w` was reached from `by` ([`via`]): the robot on the cell entered put back.
fn before(w: Wide, by: Via) -> Wide {
    let [left, entered, axis, _] = by.to_le_bytes();
    let (a, mut h) = unpack(w.packed());
    let s = if a == entered {
        pack(left, h)
    } else {
        for c in &mut h {
            if *c == entered {
                *c = left;
            }
        }
        pack(a, sort3(h))
    };
    Wide::new(s, Axis::from_bits(axis))
}

/// Whether the active robot at `a` (its moves so far: `axis`) can reach the goal in exactly
/// `k` moves of its own (`k` its bound), the helpers `h` standing still, each move lowering the bound by one;
/// its cells on the way are written to `path`. `moves`: the solution's length at the end
/// (R-B2).
#[allow(clippy::too_many_arguments)]
pub(super) fn alone(
    t: &Tables,
    lb: &Bound,
    rules: Rules,
    (a, axis): (u8, Axis),
    h: [u8; 3],
    k: u8,
    moves: u32,
    path: &mut Vec<u8>,
) -> bool {
    if k == 0 {
        return false;
    }
    if k == 1 {
        // The last move: only the one towards the goal along the robot's row or column can
        // end there.
        let Some(d) = towards(a, t.goal) else {
            return false;
        };
        let na = if rules.must_ricochet {
            axis.after(d)
        } else {
            Axis::None
        };
        let done = t.slide(a, d, h) == t.goal && rules.arrival(na, moves);
        if done {
            path.push(t.goal);
        }
        return done;
    }
    debug_assert_eq!(k, lb.at(a, axis), "a finish alone of exactly its bound");
    // Only the directions that may lower the bound are slid (the bound checked before the
    // slide): the others cannot end one lower.
    let downhill = lb.downhill(a, axis);
    for d in Dir::ALL {
        if downhill & d.bit() == 0 {
            continue;
        }
        let to = t.slide(a, d, h);
        if to == a {
            continue;
        }
        let na = if rules.must_ricochet {
            axis.after(d)
        } else {
            Axis::None
        };
        if lb.at(to, na) == k - 1 && alone(t, lb, rules, (to, na), h, k - 1, moves, path) {
            path.push(to);
            return true;
        }
    }
    false
}

/// The direction from `from` to `to` along their row or column, if they share one.
fn towards(from: u8, to: u8) -> Option<Dir> {
    if from == to {
        None
    } else if from / 16 == to / 16 {
        Some(if to > from { Dir::E } else { Dir::W })
    } else if from % 16 == to % 16 {
        Some(if to > from { Dir::S } else { Dir::N })
    } else {
        None
    }
}

/// The longest finish [`alone`] tries: beyond it, the check costs more than it saves.
pub(super) const ALONE_MAX: u8 = 12;

/// A queue entry: the state, its g (bits 40–47) and whether its finish alone was tried (bit
/// 48).
#[derive(Clone, Copy)]
struct Entry(u64);

impl Entry {
    fn new(w: Wide, g: u8, tried: bool) -> Entry {
        Entry(w.0 | u64::from(g) << 40 | u64::from(tried) << 48)
    }
    fn wide(self) -> Wide {
        Wide(self.0 & 0xFF_FFFF_FFFF)
    }
    fn g(self) -> u8 {
        self.0.to_le_bytes()[5]
    }
    fn tried(self) -> bool {
        self.0 >> 48 & 1 == 1
    }
}

/// A* with the [`Bound`] `h`, a bucket per f, and parent links for the path. A state popped
/// with f = g + h is first asked whether its robot can finish alone in h moves ([`alone`]):
/// if so, that is an optimal solution (no cheaper f is left); if not, every solution through
/// it has a helper move, so it goes back with f + 1. f never falls along a path (pathmax).
/// `None` when it outgrew its limit without R-B1 (the big tier takes over). `lb`: the bound
/// towards the target under the position's rules. `meter` is charged once per expanded state.
pub fn search(
    p: &Position,
    t: &Tables,
    lb: &Bound,
    max: u32,
    meter: &mut Meter,
) -> Option<Result<Solution, NoSolution>> {
    let rules = p.rules;
    let (start, goal) = start_and_goal(p);
    let start = Wide::new(start, Axis::None);
    let h = |w: Wide| lb.at(unpack(w.packed()).0, w.axis());
    // Before any table is built: the vortex asks each robot with rising limits.
    if h(start) == NEVER || u32::from(h(start)) > max {
        return Some(Err(NoSolution::Limit(max)));
    }
    // Each state: its g and the state it came from.
    let mut seen = States::new();
    seen.improve(start.0, 0, 0);
    let mut queue = BucketQueue::default();
    queue.push(u32::from(h(start)), Entry::new(start, 0, false));
    let mut best: Option<(u32, Wide, Wide)> = None;
    let mut next: Vec<(Wide, bool, Via)> = Vec::with_capacity(16);
    let mut finish = Vec::new();
    while let Some((f, e)) = queue.pop() {
        if f > max || best.is_some_and(|b| b.0 <= f) {
            break;
        }
        let (w, g) = (e.wide(), e.g());
        if seen.get(w.0).is_none_or(|e| e.0 != g) {
            continue; // Reached again more cheaply since it was queued.
        }
        let hw = h(w);
        if !e.tried() && u32::from(g) + u32::from(hw) == f && hw <= ALONE_MAX {
            let (a, helpers) = unpack(w.packed());
            finish.clear();
            if alone(t, lb, rules, (a, w.axis()), helpers, hw, f, &mut finish) {
                let mut states = path_to(&seen, start, w);
                states.extend(finish.iter().rev().map(|&c| pack(c, helpers)));
                return Some(Ok(solution(p, f, &states)));
            }
            queue.push(f + 1, Entry::new(w, g, true));
            continue;
        }
        if let Err(e) = meter.charge(seen.len()) {
            return Some(Err(e));
        }
        let ng = g + 1;
        expand(t, rules, goal, (w, ng), &mut next);
        for &(n, arrives, by) in &next {
            if arrives {
                if best.is_none_or(|b| u32::from(ng) < b.0) {
                    best = Some((u32::from(ng), n, w));
                }
                continue;
            }
            let hn = h(n);
            let fn_ = (u32::from(ng) + u32::from(hn)).max(f);
            if hn == NEVER || fn_ > max {
                continue;
            }
            if seen.improve(n.0, ng, by) {
                queue.push(fn_, Entry::new(n, ng, false));
            }
        }
        if !rules.must_ricochet
            && seen.len() > SMALL_LIMIT
            && (f > SHORT_F || seen.len() > SHORT_LIMIT)
        {
            return None;
        }
    }
    let Some((moves, arrived, before)) = best else {
        return Some(Err(NoSolution::Limit(max)));
    };
    let mut states = path_to(&seen, start, before);
    states.push(arrived.packed());
    Some(Ok(solution(p, moves, &states)))
}

/// The successors of `w` reached with `ng` moves, into `next`: each with whether it arrives
/// (the active robot on the goal, R-B2 met) and the way it was reached.
#[inline]
fn expand(
    t: &Tables,
    rules: Rules,
    goal: u8,
    (w, ng): (Wide, u8),
    next: &mut Vec<(Wide, bool, Via)>,
) {
    let axis = w.axis();
    next.clear();
    successors(t, w.packed(), &mut |n, active, (left, entered)| {
        let by = via(left, entered, axis);
        match active {
            Some((d, to)) => {
                let na = if rules.must_ricochet {
                    axis.after(d)
                } else {
                    Axis::None
                };
                let arrives = to == goal && rules.arrival(na, u32::from(ng));
                next.push((Wide::new(n, na), arrives, by));
            }
            None => next.push((Wide::new(n, axis), false, by)),
        }
    });
}

/// The solution of `moves` moves through `states`.
fn solution(p: &Position, moves: u32, states: &[Packed]) -> Solution {
    Solution {
        moves,
        solution: moves_of(p, states),
    }
}
