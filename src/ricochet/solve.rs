//! Optimal solutions (RULES B.1, B.2, C.2): fewest moves, the transparent robot's crossings
//! counted. Standard positions go to the fast breadth-first search of [`super::fast`]; every
//! other case (R-B1, R-B2, the vortex, a fifth robot, diagonals, the transparent robot) to a
//! bucket-queue search over canonical states here.

use super::board::{Cell, Colour, Dir};
use super::moves::{slide, transparent_slides};
use super::position::{Move, Position};
use std::collections::HashMap;

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Solution {
    pub moves: u32,
    pub solution: Vec<Move>,
}

/// Why no solution came back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoSolution {
    /// None within `max` counted moves.
    Limit(u32),
}

/// Fewest moves to the goal, up to `max` counted moves.
pub fn solve(p: &Position, max: u32) -> Result<Solution, NoSolution> {
    if super::fast::applies(p) {
        return super::fast::solve(p, max);
    }
    general(p, max)
}

/// The search state: robot cells (in the position's robot order, helpers sorted when they are
/// interchangeable) and, per robot, the last axis it moved on and whether it has turned (R-B1),
/// and how many moves were made, up to 2 (R-B2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct State {
    cells: [Cell; 6],
    axes: [u8; 6],
    moves: u8,
}

struct Setup<'a> {
    p: &'a Position,
    n: usize,
    colours: Vec<Colour>,
    /// Robots whose identity never matters (sorted in the state): not the target robot, not
    /// transparent, and only when no diagonal tells colours apart.
    interchangeable: Vec<usize>,
}

const AXIS_NONE: u8 = 0;
pub(super) const TURNED: u8 = 3;

pub(super) fn axis_after(before: u8, d: Dir) -> u8 {
    let now = if d.is_horizontal() { 1 } else { 2 };
    match before {
        TURNED => TURNED,
        AXIS_NONE => now,
        b if b != now => TURNED,
        b => b,
    }
}

impl Setup<'_> {
    fn canonical(&self, mut s: State) -> State {
        if self.interchangeable.len() > 1 {
            let mut cells: Vec<Cell> = self.interchangeable.iter().map(|&i| s.cells[i]).collect();
            cells.sort_unstable();
            for (k, &i) in self.interchangeable.iter().enumerate() {
                s.cells[i] = cells[k];
                // Their axes never matter: only the target robot's (or, for the vortex, everyone's).
                s.axes[i] = 0;
            }
        }
        s
    }

    /// Whether the move of `robot` that led to `s` brought it onto the target under the rules:
    /// a solution ends with the move that brings its robot onto the target.
    fn arrives(&self, s: &State, robot: Colour) -> bool {
        let rules = self.p.rules;
        if rules.no_single_move && s.moves < 2 {
            return false;
        }
        (0..self.n).any(|i| {
            let right_robot =
                self.colours[i] == robot && self.p.goal.robot.is_none_or(|c| c == robot);
            right_robot
                && s.cells[i] == self.p.goal.cell
                && (!rules.must_ricochet || s.axes[i] == TURNED)
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
                    next.axes[i] = axis_after(s.axes[i], d);
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

/// Dijkstra with a bucket per cost (costs are small integers), over canonical states.
pub fn general(p: &Position, max: u32) -> Result<Solution, NoSolution> {
    let n = p.robots.len();
    let colours: Vec<Colour> = p.robots.iter().map(|(c, _)| *c).collect();
    let has_diagonals = p.board.diagonals.iter().any(Option::is_some);
    let interchangeable = match p.goal.robot {
        Some(target) if !has_diagonals => (0..n)
            .filter(|&i| colours[i] != target && colours[i] != Colour::Transparent)
            .collect(),
        _ => Vec::new(),
    };
    let setup = Setup {
        p,
        n,
        colours,
        interchangeable,
    };
    let mut start = State {
        cells: [0; 6],
        axes: [0; 6],
        moves: 0,
    };
    for (i, (_, c)) in p.robots.iter().enumerate() {
        start.cells[i] = *c;
    }
    let start = setup.canonical(start);
    // Each state: its cost and the state and move it was reached from.
    let mut seen: HashMap<State, (u32, State, Move)> = HashMap::new();
    let dummy = Move {
        robot: Colour::Red,
        dir: Dir::N,
        to: None,
    };
    seen.insert(start, (0, start, dummy));
    let mut buckets: Vec<Vec<State>> = vec![vec![start]];
    let mut next = Vec::new();
    let mut cost = 0usize;
    // The cheapest arrival found so far: final once every cheaper state has been expanded.
    let mut best: Option<(u32, State, Move, State)> = None;
    while cost < buckets.len() && cost as u32 <= max {
        if best.is_some_and(|b| b.0 as usize <= cost) {
            break;
        }
        let Some(s) = buckets[cost].pop() else {
            cost += 1;
            continue;
        };
        if seen[&s].0 as usize != cost {
            continue; // A cheaper way was found after this entry was queued.
        }
        setup.successors(&s, &mut next);
        for &(t, c, m) in &next {
            let total = cost as u32 + c;
            if total > max {
                continue;
            }
            if setup.arrives(&t, m.robot) && best.is_none_or(|b| total < b.0) {
                best = Some((total, t, m, s));
            }
            if seen.get(&t).is_none_or(|e| e.0 > total) {
                seen.insert(t, (total, s, m));
                let slot = total as usize;
                if buckets.len() <= slot {
                    buckets.resize(slot + 1, Vec::new());
                }
                buckets[slot].push(t);
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
fn path(
    p: &Position,
    seen: &HashMap<State, (u32, State, Move)>,
    goal: State,
    start: State,
) -> Vec<Move> {
    let mut states = vec![goal];
    let mut here = goal;
    while here != start {
        here = seen[&here].1;
        states.push(here);
    }
    states.reverse();
    relabel(p, &states.iter().map(|s| s.cells).collect::<Vec<_>>())
}

/// The real moves, with colours, that take the position through the given robot layouts
/// (each layout as a multiset of cells per role).
pub(super) fn relabel(p: &Position, layouts: &[[Cell; 6]]) -> Vec<Move> {
    let mut pos = p.clone();
    let mut moves = Vec::new();
    for want in layouts.iter().skip(1) {
        let mut wanted: Vec<Cell> = want[..p.robots.len()].to_vec();
        wanted.sort_unstable();
        let found = pos.robots.iter().map(|(c, _)| *c).find_map(|robot| {
            Dir::ALL.iter().find_map(|&dir| {
                let mut tries: Vec<Option<(u16, u16)>> = vec![None];
                if robot == Colour::Transparent {
                    tries = want[..p.robots.len()]
                        .iter()
                        .map(|&c| Some(p.board.xy(c)))
                        .collect();
                }
                tries.into_iter().find_map(|to| {
                    let m = Move { robot, dir, to };
                    let mut trial = pos.clone();
                    trial.play(m).ok()?;
                    let mut got: Vec<Cell> = trial.robots.iter().map(|(_, c)| *c).collect();
                    got.sort_unstable();
                    (got == wanted).then_some((m, trial))
                })
            })
        });
        let (m, trial) = found.expect("each step of a found path is a legal move");
        moves.push(m);
        pos = trial;
    }
    moves
}

/// Replays a proposed solution: `Ok(counted moves)`, or which move failed and why.
pub fn check(p: &Position, moves: &[Move]) -> Result<u32, String> {
    let mut pos = p.clone();
    let mut counted = 0;
    let mut axes: HashMap<Colour, u8> = HashMap::new();
    for (i, m) in moves.iter().enumerate() {
        let (_, cost) = pos
            .play(*m)
            .map_err(|e| format!("move {} ({m}): {e}", i + 1))?;
        counted += cost;
        let a = axes.entry(m.robot).or_insert(AXIS_NONE);
        *a = axis_after(*a, m.dir);
    }
    let on_goal: Vec<Colour> = pos
        .robots
        .iter()
        .filter(|(c, cell)| *cell == p.goal.cell && p.goal.robot.is_none_or(|g| g == *c))
        .map(|(c, _)| *c)
        .collect();
    let Some(&robot) = on_goal.first() else {
        let who = p
            .goal
            .robot
            .map_or("a robot".to_string(), |c| format!("the {c} robot"));
        return Err(format!(
            "after {} moves, {who} is not on the target",
            moves.len()
        ));
    };
    if moves.last().is_some_and(|m| m.robot != robot) {
        return Err(format!(
            "the {robot} robot is on the target before the last move: a solution ends with the move that brings it there"
        ));
    }
    if p.rules.must_ricochet && axes.get(&robot) != Some(&TURNED) {
        return Err(format!(
            "the {robot} robot reaches the target without ever turning: it must ricochet (R-B1)"
        ));
    }
    if p.rules.no_single_move && moves.len() == 1 {
        return Err("a one-move solution does not count (R-B2)".into());
    }
    Ok(counted)
}
