//! The hardest start positions of one target on one board (`ricochet hardest`): every
//! placement of the robots on the free cells, its fewest moves found by one retrograde
//! (backward) breadth-first search from the moves that bring the goal robot onto the target.
//!
//! A placement is indexed by a combinatorial number system: for a coloured target, the goal
//! robot's cell times the set of the other robots' cells (their colours never matter without
//! diagonals); for the vortex, the set of all the robots' cells. One byte a placement holds
//! its fewest moves (0: not reached yet). Layer d+1 is every unreached placement one move
//! before a placement of layer d: an un-move takes a robot at `c` that is blocked going `d`
//! (a wall, the edge, the centre or a robot) back to any cell behind it, against `d`, up to
//! the first obstacle. Layer 1 is the un-moves of the goal robot standing on the target.
//! Layers are scanned in parallel (rayon) and writes only ever turn 0 into d+1, so the answer
//! is the same for any number of threads. Under R-B1 (a coloured target only) a state also
//! holds the goal robot's [`Axis`] (four times the states): the target is reached turned, and
//! a start position is a placement whose goal robot has not moved. R-B2 is off.

use crate::parallel::prelude::*;
use crate::ricochet::board::{Board, Colour, Dir};
use crate::ricochet::position::Goal;
use crate::ricochet::rules::Axis;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// The most robots a question places.
pub const MAX_ROBOTS: usize = 5;
/// The most moves a placement may need before the search gives up (a byte a placement).
pub const MAX_MOVES: u32 = 250;
const NONE: u16 = u16::MAX;

/// Why a question cannot be answered.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HardestError {
    #[error("place 1 to {MAX_ROBOTS} robots, not {0}")]
    Robots(usize),
    #[error(
        "this board has diagonals: the robots' colours would matter, which this search does not follow"
    )]
    Diagonals,
    #[error("the target is in the centre or off the board")]
    Target,
    #[error(
        "R-B1 with the vortex: every robot's turns would count, which this search does not follow"
    )]
    VortexRicochet,
    #[error("the board has {free} free cells, too few for {robots} robots")]
    TooFewCells { free: usize, robots: usize },
    #[error("{states} states need {states} bytes, over the limit of {limit} bytes")]
    TooBig { states: u64, limit: u64 },
    #[error("some placement needs more than {MAX_MOVES} moves")]
    TooDeep,
}

/// What the search reports as it goes: a layer done, or states scanned in a layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Report {
    Layer { moves: u32, found: u64 },
    Scanned(u64),
}

/// A question checked and sized: the board's free cells and their neighbours.
pub struct Plan {
    pub goal: Goal,
    /// The robots' colours: the goal robot first (for the vortex, all alike).
    pub colours: Vec<Colour>,
    /// R-B1: the goal robot must turn (a state then also holds its [`Axis`]).
    pub must_ricochet: bool,
    free: Vec<u16>,
    /// Per free cell and direction, the free cell next to it, [`NONE`] past a wall, the edge
    /// or the centre.
    next: Vec<[u16; 4]>,
    goal_index: u16,
    /// Robots whose cells form the set: all of them for the vortex, else all but the first.
    set: usize,
    binom: Vec<[u64; MAX_ROBOTS + 1]>,
    placements: u64,
    /// 1, or 4 under R-B1 (the goal robot's axis: none, horizontal, vertical, turned).
    axes: usize,
    width: u16,
}

/// The answer: start positions per number of moves, those with no solution, and the first
/// start positions (by index) that need the most.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// `by_moves[m]`: the start positions that need `m` moves (`by_moves[0]` is 0).
    pub by_moves: Vec<u64>,
    pub unsolvable: u64,
    /// The first start positions needing the most moves: each robot's colour and `[x, y]`.
    pub hardest: Vec<Vec<(Colour, (u16, u16))>>,
}

impl Answer {
    /// The most moves any start position needs, and how many need them.
    pub fn most(&self) -> Option<(u32, u64)> {
        let m = self.by_moves.iter().rposition(|&n| n > 0)?;
        Some((u32::try_from(m).ok()?, self.by_moves[m]))
    }
}

/// The axes a goal robot may have had before a move going `d` that left it with axis `a`
/// (as [`Axis::index`]).
fn axes_before(a: usize, d: usize) -> impl Iterator<Item = usize> {
    (0..4).filter(move |&b| Axis::ALL[b].after(Dir::ALL[d]).index() == a)
}

impl Plan {
    /// Checks a question: `robots` robots (the goal's robot, then the others in colour order)
    /// on `board`'s free cells, R-B1 or not, at most `limit` bytes of states.
    pub fn new(
        board: &Board,
        goal: Goal,
        robots: usize,
        must_ricochet: bool,
        limit: u64,
    ) -> Result<Plan, HardestError> {
        if !(1..=MAX_ROBOTS).contains(&robots) {
            return Err(HardestError::Robots(robots));
        }
        if board.diagonals.iter().any(Option::is_some) {
            return Err(HardestError::Diagonals);
        }
        if board.blocked.get(usize::from(goal.cell)) != Some(&false) {
            return Err(HardestError::Target);
        }
        if must_ricochet && goal.robot.is_none() {
            return Err(HardestError::VortexRicochet);
        }
        let others = Colour::ALL[..MAX_ROBOTS]
            .iter()
            .copied()
            .filter(|c| Some(*c) != goal.robot);
        let colours: Vec<Colour> = goal.robot.into_iter().chain(others).take(robots).collect();
        let free: Vec<u16> = (0..board.len())
            .filter(|&c| !board.blocked[c])
            .filter_map(|c| u16::try_from(c).ok())
            .collect();
        if free.len() < robots {
            return Err(HardestError::TooFewCells {
                free: free.len(),
                robots,
            });
        }
        let mut index_of = vec![NONE; board.len()];
        for (i, &c) in (0u16..).zip(&free) {
            index_of[usize::from(c)] = i;
        }
        let next = free
            .iter()
            .map(|&c| {
                Dir::ALL.map(|d| match board.neighbour(c, d) {
                    Some(n) if !board.wall(c, d) => index_of[usize::from(n)],
                    _ => NONE,
                })
            })
            .collect();
        let mut binom = vec![[0u64; MAX_ROBOTS + 1]; free.len() + 1];
        for n in 0..=free.len() {
            binom[n][0] = 1;
            for r in 1..=MAX_ROBOTS.min(n) {
                binom[n][r] = binom[n - 1][r - 1].saturating_add(binom[n - 1][r]);
            }
        }
        let set = if goal.robot.is_some() {
            robots - 1
        } else {
            robots
        };
        let f = u64::try_from(free.len()).unwrap_or(u64::MAX);
        let placements = if goal.robot.is_some() {
            f.saturating_mul(binom[free.len() - 1][set])
        } else {
            binom[free.len()][set]
        };
        let axes = if must_ricochet { 4 } else { 1 };
        let states = placements.saturating_mul(axes);
        if states > limit {
            return Err(HardestError::TooBig { states, limit });
        }
        Ok(Plan {
            goal,
            colours,
            must_ricochet,
            goal_index: index_of[usize::from(goal.cell)],
            free,
            next,
            set,
            binom,
            placements,
            axes: if must_ricochet { 4 } else { 1 },
            width: board.width,
        })
    }

    /// How many start positions there are (the other robots' colours aside).
    pub fn placements(&self) -> u64 {
        self.placements
    }

    /// How many states the search holds, one byte each: the placements, times 4 under R-B1.
    pub fn states(&self) -> u64 {
        self.placements * u64::try_from(self.axes).unwrap_or(4)
    }

    fn active(&self) -> bool {
        self.goal.robot.is_some()
    }

    fn inner_chunks(&self) -> usize {
        self.free.len()
    }

    /// One chunk of the index space: its first index, and the range and size of its sets.
    /// For a coloured target a chunk is an axis and the goal robot's free index; for the
    /// vortex, the largest cell of the set.
    fn chunk(&self, chunk: usize) -> (u64, usize, usize) {
        let (axis, inner) = (chunk / self.inner_chunks(), chunk % self.inner_chunks());
        let base = u64::try_from(axis).unwrap_or(0) * self.placements;
        let f = self.free.len();
        if self.active() {
            let size = self.binom[f - 1][self.set];
            (
                base + u64::try_from(inner).unwrap_or(0) * size,
                f - 1,
                self.set,
            )
        } else {
            (base + self.binom[inner][self.set], inner, self.set - 1)
        }
    }

    /// The index of a state: `cells[0]` the goal robot's (coloured target), the rest in any
    /// order; all free indices; `axis` the goal robot's.
    fn index(&self, cells: &[u16], axis: usize) -> usize {
        let mut s = [0u16; MAX_ROBOTS];
        let base = u64::try_from(axis).unwrap_or(0) * self.placements;
        let (base, rest, a) = if self.active() {
            let size = self.binom[self.free.len() - 1][self.set];
            (base + u64::from(cells[0]) * size, &cells[1..], cells[0])
        } else {
            (base, cells, NONE)
        };
        let k = rest.len();
        for (slot, &c) in s.iter_mut().zip(rest) {
            *slot = if c > a && a != NONE { c - 1 } else { c };
        }
        s[..k].sort_unstable();
        let rank: u64 = (0..k).map(|i| self.binom[usize::from(s[i])][i + 1]).sum();
        usize::try_from(base + rank).unwrap_or(usize::MAX)
    }

    /// The robots' free indices for the set `s` of chunk `chunk`: the goal robot first for
    /// a coloured target.
    fn cells(&self, chunk: usize, s: &[u16], out: &mut [u16; MAX_ROBOTS]) -> usize {
        let inner = u16::try_from(chunk % self.inner_chunks()).unwrap_or(NONE);
        if self.active() {
            out[0] = inner;
            for (slot, &c) in out[1..].iter_mut().zip(s) {
                *slot = if c >= inner { c + 1 } else { c };
            }
        } else {
            out[..s.len()].copy_from_slice(s);
            out[s.len()] = inner;
        }
        s.len() + 1
    }

    /// Every state one move before (`cells`, `axis`): an un-move of robot `only`, or of any
    /// robot. Under R-B1 the goal robot's un-move goes back to each axis it may have had.
    fn unmoves(&self, cells: &[u16], axis: usize, only: Option<usize>, out: &mut dyn FnMut(usize)) {
        let occupied = |c: u16| cells.contains(&c);
        let mut moved = [0u16; MAX_ROBOTS];
        moved[..cells.len()].copy_from_slice(cells);
        for i in (0..cells.len()).filter(|&i| only.is_none_or(|r| r == i)) {
            let c = cells[i];
            for d in 0..4 {
                let ahead = self.next[usize::from(c)][d];
                if ahead != NONE && !occupied(ahead) {
                    continue; // not blocked going d: no move going d ends here
                }
                let turns = self.must_ricochet && i == 0;
                let back = (d + 2) % 4;
                let mut here = c;
                loop {
                    let n = self.next[usize::from(here)][back];
                    if n == NONE || occupied(n) {
                        break;
                    }
                    moved[i] = n;
                    if turns {
                        for before in axes_before(axis, d) {
                            out(self.index(&moved[..cells.len()], before));
                        }
                    } else {
                        out(self.index(&moved[..cells.len()], axis));
                    }
                    here = n;
                }
                moved[i] = c;
            }
        }
    }
}

/// Calls `f` with each `size`-subset of `0..n` in increasing colex order (its rank order).
fn subsets(n: usize, size: usize, f: &mut dyn FnMut(&[u16])) {
    if size > n {
        return;
    }
    let mut s: Vec<u16> = (0..size).filter_map(|i| u16::try_from(i).ok()).collect();
    let top = u16::try_from(n).unwrap_or(NONE);
    loop {
        f(&s);
        // The next set: raise the first element that can rise, reset those below it.
        let Some(i) = (0..size).find(|&i| s[i] + 1 < s.get(i + 1).copied().unwrap_or(top)) else {
            return;
        };
        s[i] += 1;
        for (j, slot) in (0u16..).zip(s.iter_mut().take(i)) {
            *slot = j;
        }
    }
}

fn mark(dist: &[AtomicU8], i: usize, moves: u8) -> bool {
    dist[i].load(Relaxed) == 0 && dist[i].swap(moves, Relaxed) == 0
}

/// Runs the search: `progress` hears each layer's end and the states scanned (from any
/// thread); `show` is how many of the hardest start positions to give.
pub fn search(
    plan: &Plan,
    show: usize,
    progress: &(dyn Fn(Report) + Sync),
) -> Result<Answer, HardestError> {
    let dist = layers(plan, progress)?;
    // Start positions: the goal robot has not moved yet (axis none, the first slice).
    let starts = &dist[..usize::try_from(plan.placements).unwrap_or(usize::MAX)];
    let by_moves = starts
        .par_chunks(1 << 16)
        .map(|chunk| {
            let mut counts = vec![0u64; usize::try_from(MAX_MOVES).unwrap_or(0) + 1];
            for d in chunk {
                counts[usize::from(d.load(Relaxed))] += 1;
            }
            counts
        })
        .reduce(
            || vec![0u64; usize::try_from(MAX_MOVES).unwrap_or(0) + 1],
            |a, b| a.iter().zip(&b).map(|(x, y)| x + y).collect(),
        );
    let unsolvable = by_moves[0];
    let mut by_moves = by_moves;
    by_moves[0] = 0;
    let most = by_moves.iter().rposition(|&n| n > 0).unwrap_or(0);
    by_moves.truncate(most + 1);
    let most = u8::try_from(most).unwrap_or(u8::MAX);
    let hardest = (0..starts.len())
        .filter(|&i| most > 0 && starts[i].load(Relaxed) == most)
        .take(show)
        .map(|i| plan.placement(i))
        .collect();
    Ok(Answer {
        by_moves,
        unsolvable,
        hardest,
    })
}

/// Each state's fewest moves (0: none).
fn layers(plan: &Plan, progress: &(dyn Fn(Report) + Sync)) -> Result<Vec<AtomicU8>, HardestError> {
    let n = usize::try_from(plan.states()).unwrap_or(usize::MAX);
    let dist: Vec<AtomicU8> = (0..n).into_par_iter().map(|_| AtomicU8::new(0)).collect();
    // Layer 1: the goal robot (any robot, for the vortex) un-moves off the target, having
    // arrived turned under R-B1.
    let g = plan.goal_index;
    let others = if plan.active() {
        plan.set
    } else {
        plan.set - 1
    };
    let arrived = if plan.must_ricochet {
        Axis::Turned.index()
    } else {
        0
    };
    let mut found: u64 = 0;
    subsets(plan.free.len() - 1, others, &mut |s| {
        let mut cells = [0u16; MAX_ROBOTS];
        cells[0] = g;
        for (slot, &c) in cells[1..].iter_mut().zip(s) {
            *slot = if c >= g { c + 1 } else { c };
        }
        plan.unmoves(&cells[..=others], arrived, Some(0), &mut |i| {
            if mark(&dist, i, 1) {
                found += 1;
            }
        });
    });
    progress(Report::Layer { moves: 1, found });
    let mut layer = 1u8;
    while found > 0 {
        if u32::from(layer) >= MAX_MOVES {
            return Err(HardestError::TooDeep);
        }
        let next = layer + 1;
        found = (0..plan.inner_chunks() * plan.axes)
            .into_par_iter()
            .map(|chunk| {
                let (base, range, size) = plan.chunk(chunk);
                let axis = chunk / plan.inner_chunks();
                let mut at = usize::try_from(base).unwrap_or(usize::MAX);
                let (mut found, mut scanned) = (0u64, 0u64);
                let mut cells = [0u16; MAX_ROBOTS];
                subsets(range, size, &mut |s| {
                    if dist[at].load(Relaxed) == layer {
                        let k = plan.cells(chunk, s, &mut cells);
                        plan.unmoves(&cells[..k], axis, None, &mut |i| {
                            if mark(&dist, i, next) {
                                found += 1;
                            }
                        });
                    }
                    at += 1;
                    scanned += 1;
                });
                progress(Report::Scanned(scanned));
                found
            })
            .sum();
        progress(Report::Layer {
            moves: u32::from(next),
            found,
        });
        layer = next;
    }
    Ok(dist)
}

impl Plan {
    /// The start position of index `i` (among the placements): each robot's colour and cell
    /// (the other robots in colour order on their cells in increasing order).
    fn placement(&self, i: usize) -> Vec<(Colour, (u16, u16))> {
        let i = u64::try_from(i).unwrap_or(0);
        let f = self.free.len();
        let (chunk, mut rank, n) = if self.active() {
            let size = self.binom[f - 1][self.set];
            (i / size, i % size, f - 1)
        } else {
            (0, i, f)
        };
        let mut s = vec![0u16; self.set];
        for k in (1..=self.set).rev() {
            let mut c = k - 1;
            while c + 1 < n && self.binom[c + 1][k] <= rank {
                c += 1;
            }
            rank -= self.binom[c][k];
            s[k - 1] = u16::try_from(c).unwrap_or(NONE);
        }
        let mut cells: Vec<u16> = Vec::new();
        if self.active() {
            let a = u16::try_from(chunk).unwrap_or(NONE);
            cells.push(a);
            cells.extend(s.iter().map(|&c| if c >= a { c + 1 } else { c }));
        } else {
            cells = s;
        }
        self.colours
            .iter()
            .zip(cells)
            .map(|(&colour, c)| {
                let cell = self.free[usize::from(c)];
                (colour, (cell % self.width, cell / self.width))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
