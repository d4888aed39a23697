//! The general search, for every position the standard tiers do not take (R-B1 or R-B2 on
//! any board, the vortex off the standard boards, a fifth robot, diagonals, the transparent robot, custom boards):
//! Dijkstra with a bucket per cost (costs are small integers: the transparent robot's
//! crossings count), over canonical states.

use super::bucket::BucketQueue;
use super::solution::{Budget, Meter, NoSolution, Solution, relabel};
use crate::ricochet::board::{Cell, Colour, Dir};
use crate::ricochet::moves::{slide, transparent_slides};
use crate::ricochet::position::{Move, Position};
use crate::ricochet::rules::Axis;
use std::collections::HashMap;

/// The search state: robot cells (in the position's robot order, helpers sorted when they are
/// interchangeable) and, per robot, its [`Axis`] so far (R-B1), and how many moves were made,
/// up to 2 (R-B2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct State {
    cells: [Cell; 6],
    axes: [Axis; 6],
    moves: u8,
}

impl std::hash::Hash for State {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        // The axes as one run of bytes: this is the hot loop.
        self.cells.hash(h);
        self.axes.map(Axis::bits).hash(h);
        self.moves.hash(h);
    }
}

struct Setup<'a> {
    p: &'a Position,
    n: usize,
    colours: Vec<Colour>,
    /// Robots whose identity never matters (sorted in the state): not the target robot, not
    /// transparent, and only when no diagonal tells colours apart.
    interchangeable: Vec<usize>,
}

impl Setup<'_> {
    fn new(p: &Position) -> Setup<'_> {
        let n = p.robots.len();
        let colours: Vec<Colour> = p.robots.iter().map(|(c, _)| *c).collect();
        let has_diagonals = p.board.diagonals.iter().any(Option::is_some);
        let interchangeable = match p.goal.robot {
            Some(target) if !has_diagonals => (0..n)
                .filter(|&i| colours[i] != target && colours[i] != Colour::Transparent)
                .collect(),
            _ => Vec::new(),
        };
        Setup {
            p,
            n,
            colours,
            interchangeable,
        }
    }

    fn canonical(&self, mut s: State) -> State {
        if self.interchangeable.len() > 1 {
            let mut cells: Vec<Cell> = self.interchangeable.iter().map(|&i| s.cells[i]).collect();
            cells.sort_unstable();
            for (k, &i) in self.interchangeable.iter().enumerate() {
                s.cells[i] = cells[k];
                // Their axes never matter: only the target robot's (or, for the vortex, everyone's).
                s.axes[i] = Axis::None;
            }
        }
        s
    }

    /// Whether the move of `robot` that led to `s` brought it onto the target under the rules:
    /// a solution ends with the move that brings its robot onto the target.
    fn arrives(&self, s: &State, robot: Colour) -> bool {
        (0..self.n).any(|i| {
            let right_robot =
                self.colours[i] == robot && self.p.goal.robot.is_none_or(|c| c == robot);
            right_robot
                && s.cells[i] == self.p.goal.cell
                && self.p.rules.arrival(s.axes[i], u32::from(s.moves))
        })
    }

    /// Every move from `s`: (next state, cost, the move).
    fn successors(&self, s: &State, out: &mut Vec<(State, u32, Move)>) {
        out.clear();
        let b = &self.p.board;
        for i in 0..self.n {
            let occupied = |c: Cell| (0..self.n).any(|j| j != i && s.cells[j] == c);
            for d in Dir::ALL {
                let mut push = |to: Cell, cost: u32, at: Option<(u16, u16)>| {
                    let mut next = *s;
                    next.cells[i] = to;
                    next.axes[i] = s.axes[i].after(d);
                    next.moves = (s.moves + 1).min(2);
                    out.push((
                        self.canonical(next),
                        cost,
                        Move {
                            robot: self.colours[i],
                            dir: d,
                            to: at,
                        },
                    ));
                };
                if self.colours[i] == Colour::Transparent {
                    for (to, crossed) in transparent_slides(b, s.cells[i], d, &occupied) {
                        push(to, 1 + u32::from(crossed), Some(b.xy(to)));
                    }
                } else if let Some(to) = slide(b, s.cells[i], self.colours[i], d, &occupied) {
                    push(to, 1, None);
                }
            }
        }
    }
}

/// Each state reached: its cost and the state and move it was reached from.
type Seen = HashMap<State, (u32, State, Move)>;

/// Fewest counted moves to the goal, up to `max`, within the default [`Budget`].
pub fn general(p: &Position, max: u32) -> Result<Solution, NoSolution> {
    if !p.is_well_formed() {
        return Err(NoSolution::Malformed);
    }
    search(p, max, &mut Meter::new(Budget::default(), &mut |_| {}))
}

/// Fewest counted moves to the goal, up to `max`, charging `meter` once per expanded state.
/// The position is well formed ([`Position::is_well_formed`]).
pub(super) fn search(p: &Position, max: u32, meter: &mut Meter) -> Result<Solution, NoSolution> {
    let setup = Setup::new(p);
    let mut start = State {
        cells: [0; 6],
        axes: [Axis::None; 6],
        moves: 0,
    };
    for (i, (_, c)) in p.robots.iter().enumerate() {
        start.cells[i] = *c;
    }
    let start = setup.canonical(start);
    let mut seen: Seen = HashMap::new();
    let dummy = Move {
        robot: Colour::Red,
        dir: Dir::N,
        to: None,
    };
    seen.insert(start, (0, start, dummy));
    let mut queue = BucketQueue::default();
    queue.push(0, start);
    let mut next = Vec::new();
    // The cheapest arrival found so far: final once every cheaper state has been expanded.
    let mut best: Option<(u32, State, Move, State)> = None;
    while let Some((cost, s)) = queue.pop() {
        if cost > max || best.is_some_and(|b| b.0 <= cost) {
            break;
        }
        if seen[&s].0 != cost {
            continue; // A cheaper way was found after this entry was queued.
        }
        meter.charge(seen.len())?;
        setup.successors(&s, &mut next);
        for &(t, c, m) in &next {
            let total = cost + c;
            if total > max {
                continue;
            }
            if setup.arrives(&t, m.robot) && best.is_none_or(|b| total < b.0) {
                best = Some((total, t, m, s));
            }
            if seen.get(&t).is_none_or(|e| e.0 > total) {
                seen.insert(t, (total, s, m));
                queue.push(total, t);
            }
        }
    }
    match best {
        Some((total, _, last, before)) => {
            // The arriving move is the target robot's (or, for the vortex, a robot never
            // sorted with others), so its colour is already the real one.
            let mut moves = path(p, &seen, before, start);
            moves.push(last);
            Ok(Solution {
                moves: total,
                solution: moves,
            })
        }
        None => Err(NoSolution::Limit(max)),
    }
}

/// Walks the recorded moves back from the goal, then relabels them by replaying from the
/// start: canonical states forget which helper is which.
fn path(p: &Position, seen: &Seen, goal: State, start: State) -> Vec<Move> {
    let mut states = vec![goal];
    let mut here = goal;
    while here != start {
        here = seen[&here].1;
        states.push(here);
    }
    states.reverse();
    relabel(p, &states.iter().map(|s| s.cells).collect::<Vec<_>>())
}
