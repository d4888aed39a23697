//! Every optimal solution of a position (`ricochet solve --all`, `ricochet hint`): given the
//! optimal length L (from [`crate::ricochet::solve::solve`]), a depth-first search over the moves of
//! [`crate::ricochet::moves`] (the slides [`Position::play`] makes) counts, for each state and counted
//! moves left, the solutions that end exactly then; a state with none is remembered as dead
//! for that many moves. The count guides the listing, which follows only live moves, in a
//! fixed order: robots in colour order, directions N, E, S, W, the transparent robot's stops
//! by cell. Every rule the solver knows holds here: R-B1, R-B2, the vortex, the fifth robot,
//! diagonals, custom boards and the transparent robot's crossings (RULES B, C.2).
//!
//! The work is bounded: the memo holds at most the [`Budget`]'s states, and a lower bound (the
//! moves the goal robot alone needs, stopping anywhere on its way: robots only shorten a
//! slide) cuts states that cannot arrive in time.

use crate::ricochet::board::{Board, Cell, Colour, Dir};
use crate::ricochet::moves::{slide, transparent_slides};
use crate::ricochet::position::{Move, Position};
use crate::ricochet::rules::Axis;
use crate::ricochet::solve::solution::Budget;
use std::collections::HashMap;

/// Why the solutions could not be listed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AllError {
    #[error("the position is not well formed (robots of one colour, or off the board)")]
    Malformed,
    /// The memo reached the budget's states before the search ended.
    #[error("gave up after {0} states")]
    Budget(u64),
    /// More optimal solutions than 2^128 - 1: the count says nothing more.
    #[error("more optimal solutions than can be counted")]
    TooMany,
}

/// The optimal solutions of a position: their counted moves, how many there are, and the
/// first ones in the listing order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Optimal {
    pub moves: u32,
    pub count: u128,
    pub solutions: Vec<Vec<Move>>,
}

/// Which robots the optimal solutions move: `every` moves in each of them, `some` in at least
/// one (`every` is part of `some`); both in colour order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Movers {
    pub every: Vec<Colour>,
    pub some: Vec<Colour>,
}

/// The solutions of `moves` counted moves (the optimal length: no solution is shorter), the
/// first `limit` of them listed.
pub fn optimal(
    p: &Position,
    moves: u32,
    limit: usize,
    budget: Budget,
) -> Result<Optimal, AllError> {
    let mut search = Search::new(p, None, budget)?;
    let start = search.start();
    let count = search.count(&start, moves)?;
    if count == u128::MAX {
        return Err(AllError::TooMany);
    }
    let mut solutions = Vec::new();
    let mut prefix = Vec::new();
    search.list(&start, moves, &mut prefix, &mut solutions, limit)?;
    Ok(Optimal {
        moves,
        count,
        solutions,
    })
}

/// Which robots move in every, and in some, solution of `moves` counted moves (the optimal
/// length): a robot moves in every one when none is left without its moves, in some when
/// fewer are left.
pub fn movers(p: &Position, moves: u32, budget: Budget) -> Result<Movers, AllError> {
    let mut all = Search::new(p, None, budget)?;
    let total = all.count(&all.start(), moves)?;
    if total == u128::MAX {
        return Err(AllError::TooMany);
    }
    let mut every = Vec::new();
    let mut some = Vec::new();
    for (i, (colour, _)) in p.robots.iter().enumerate() {
        let mut without = Search::new(p, Some(i), budget)?;
        let left = without.count(&without.start(), moves)?;
        if left == 0 {
            every.push(*colour);
        }
        if left < total {
            some.push(*colour);
        }
    }
    Ok(Movers { every, some })
}

/// Robot cells in the position's order, each robot's axis so far (R-B1), moves played up to 2
/// (R-B2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct State {
    cells: [Cell; 6],
    axes: [Axis; 6],
    played: u8,
}

/// A memo key: the state with what cannot change its count forgotten, and the moves left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Key {
    state: State,
    left: u32,
}

struct Search<'a> {
    p: &'a Position,
    n: usize,
    colours: Vec<Colour>,
    /// A robot whose moves are left out ([`movers`]).
    without: Option<usize>,
    /// Robots whose identity never changes a count (sorted in a key): not the goal robot, not
    /// transparent, not left out, and only when no diagonal tells colours apart.
    interchangeable: Vec<usize>,
    /// Per robot: the fewest moves it alone needs from each cell to the goal cell
    /// (`u32::MAX`: never; all 0 when no bound is known).
    bound: Vec<Vec<u32>>,
    memo: HashMap<Key, u128>,
    budget: Budget,
}

impl<'a> Search<'a> {
    fn new(
        p: &'a Position,
        without: Option<usize>,
        budget: Budget,
    ) -> Result<Search<'a>, AllError> {
        if !p.is_well_formed() {
            return Err(AllError::Malformed);
        }
        let n = p.robots.len();
        let colours: Vec<Colour> = p.robots.iter().map(|(c, _)| *c).collect();
        let has_diagonals = p.board.diagonals.iter().any(Option::is_some);
        let interchangeable = match p.goal.robot {
            Some(target) if !has_diagonals => (0..n)
                .filter(|&i| {
                    colours[i] != target && colours[i] != Colour::Transparent && without != Some(i)
                })
                .collect(),
            _ => Vec::new(),
        };
        let bound = colours
            .iter()
            .map(|&c| {
                let goal_robot = p.goal.robot.is_none_or(|g| g == c);
                if goal_robot && c != Colour::Transparent {
                    lone_moves(&p.board, c, p.goal.cell)
                } else {
                    vec![0; p.board.len()]
                }
            })
            .collect();
        Ok(Search {
            p,
            n,
            colours,
            without,
            interchangeable,
            bound,
            memo: HashMap::new(),
            budget,
        })
    }

    fn start(&self) -> State {
        let mut s = State {
            cells: [0; 6],
            axes: [Axis::None; 6],
            played: 0,
        };
        for (i, (_, c)) in self.p.robots.iter().enumerate() {
            s.cells[i] = *c;
        }
        s
    }

    fn key(&self, s: &State, left: u32) -> Key {
        let mut k = *s;
        if self.interchangeable.len() > 1 {
            let mut cells: Vec<Cell> = self.interchangeable.iter().map(|&i| s.cells[i]).collect();
            cells.sort_unstable();
            for (&i, c) in self.interchangeable.iter().zip(cells) {
                k.cells[i] = c;
            }
        }
        for i in 0..self.n {
            let matters = self.p.rules.must_ricochet
                && self.p.goal.robot.is_none_or(|g| g == self.colours[i]);
            if !matters {
                k.axes[i] = Axis::None;
            }
        }
        if !self.p.rules.no_single_move {
            k.played = 0;
        }
        Key { state: k, left }
    }

    /// Whether no solution of `left` more counted moves can start from `s`: the goal robot
    /// (each robot, for the vortex) needs more moves alone, or must still turn (R-B1).
    fn hopeless(&self, s: &State, left: u32) -> bool {
        (0..self.n).all(|i| {
            if self.p.goal.robot.is_some_and(|g| g != self.colours[i]) {
                return true;
            }
            let turn = match (self.p.rules.must_ricochet, s.axes[i]) {
                (false, _) | (true, Axis::Turned) => 1,
                (true, Axis::None) => 2,
                (true, _) => 1,
            };
            self.bound[i][usize::from(s.cells[i])].max(turn) > left
        })
    }

    /// Every move from `s`, in the listing order: the move, its counted moves, the state after.
    fn moves(&self, s: &State) -> Vec<(Move, u32, State)> {
        let b = &self.p.board;
        let mut out = Vec::new();
        for i in (0..self.n).filter(|&i| self.without != Some(i)) {
            let occupied = |c: Cell| (0..self.n).any(|j| j != i && s.cells[j] == c);
            for dir in Dir::ALL {
                let after = |to: Cell| {
                    let mut t = *s;
                    t.cells[i] = to;
                    t.axes[i] = s.axes[i].after(dir);
                    t.played = (s.played + 1).min(2);
                    t
                };
                let robot = self.colours[i];
                if robot == Colour::Transparent {
                    for (to, crossed) in transparent_slides(b, s.cells[i], dir, &occupied) {
                        let m = Move {
                            robot,
                            dir,
                            to: Some(b.xy(to)),
                        };
                        out.push((m, 1 + u32::from(crossed), after(to)));
                    }
                } else if let Some(to) = slide(b, s.cells[i], robot, dir, &occupied) {
                    let m = Move {
                        robot,
                        dir,
                        to: None,
                    };
                    out.push((m, 1, after(to)));
                }
            }
        }
        out
    }

    /// Whether the move of `robot` that led to `s` ends a solution (R-B1, R-B2).
    fn arrives(&self, s: &State, robot: Colour) -> bool {
        (0..self.n).any(|i| {
            self.colours[i] == robot
                && self.p.goal.robot.is_none_or(|g| g == robot)
                && s.cells[i] == self.p.goal.cell
                && self.p.rules.arrival(s.axes[i], u32::from(s.played))
        })
    }

    /// How many move sequences from `s` end a solution after exactly `left` counted moves
    /// (saturating at `u128::MAX`).
    fn count(&mut self, s: &State, left: u32) -> Result<u128, AllError> {
        if left == 0 || self.hopeless(s, left) {
            return Ok(0);
        }
        let key = self.key(s, left);
        if let Some(&n) = self.memo.get(&key) {
            return Ok(n);
        }
        let mut total: u128 = 0;
        for (m, cost, t) in self.moves(s) {
            if cost > left {
                continue;
            }
            let n = if self.arrives(&t, m.robot) {
                // A solution ends at its arrival: one that arrives early is not this long.
                u128::from(cost == left)
            } else {
                self.count(&t, left - cost)?
            };
            total = total.saturating_add(n);
        }
        let held = u64::try_from(self.memo.len()).unwrap_or(u64::MAX);
        if held >= self.budget.max_states {
            return Err(AllError::Budget(held));
        }
        self.memo.insert(key, total);
        Ok(total)
    }

    /// Lists the solutions from `s` of exactly `left` counted moves after `prefix`, in order,
    /// until `out` holds `limit`.
    fn list(
        &mut self,
        s: &State,
        left: u32,
        prefix: &mut Vec<Move>,
        out: &mut Vec<Vec<Move>>,
        limit: usize,
    ) -> Result<(), AllError> {
        for (m, cost, t) in self.moves(s) {
            if out.len() >= limit {
                return Ok(());
            }
            if cost > left {
                continue;
            }
            prefix.push(m);
            if self.arrives(&t, m.robot) {
                if cost == left {
                    out.push(prefix.clone());
                }
            } else if self.count(&t, left - cost)? > 0 {
                self.list(&t, left - cost, prefix, out, limit)?;
            }
            prefix.pop();
        }
        Ok(())
    }
}

/// The fewest moves a robot of `colour` alone needs from each cell to `goal`, where a move may
/// stop on any cell its slide crosses (other robots only ever stop it sooner): a lower bound.
/// All 0 when a slide is too long to trace (diagonals turning it round a large board).
fn lone_moves(b: &Board, colour: Colour, goal: Cell) -> Vec<u32> {
    let cells = b.len();
    // For each cell, the cells from which one lone move may stop there.
    let mut into: Vec<Vec<Cell>> = vec![Vec::new(); cells];
    let longest = 4 * (usize::from(b.width) + usize::from(b.height));
    for from in (0..cells).filter_map(|c| Cell::try_from(c).ok()) {
        if b.blocked[usize::from(from)] {
            continue;
        }
        for dir in Dir::ALL {
            let Some(path) = crossed(b, from, colour, dir, longest) else {
                return vec![0; cells];
            };
            for c in path {
                into[usize::from(c)].push(from);
            }
        }
    }
    let mut dist = vec![u32::MAX; cells];
    dist[usize::from(goal)] = 0;
    let mut queue = std::collections::VecDeque::from([goal]);
    while let Some(c) = queue.pop_front() {
        let d = dist[usize::from(c)];
        for &from in &into[usize::from(c)] {
            if dist[usize::from(from)] == u32::MAX {
                dist[usize::from(from)] = d + 1;
                queue.push_back(from);
            }
        }
    }
    dist
}

/// The cells a lone robot's slide from `from` going `dir` may stop on (every cell it passes
/// that is not a diagonal), as [`slide`] moves it with no other robot; `None` past `longest`
/// steps.
fn crossed(b: &Board, from: Cell, colour: Colour, dir: Dir, longest: usize) -> Option<Vec<Cell>> {
    let mut path = Vec::new();
    let (mut here, mut d) = (from, dir);
    let free = |c: Cell, d: Dir| {
        if b.wall(c, d) {
            return None;
        }
        b.neighbour(c, d).filter(|n| !b.blocked[usize::from(*n)])
    };
    for steps in 0.. {
        let Some(next) = free(here, d) else { break };
        if steps > longest {
            return None;
        }
        match b.diagonals[usize::from(next)] {
            Some(diag) if diag.colour != colour => d = diag.deflect(d),
            Some(_) => {}
            None => path.push(next),
        }
        here = next;
    }
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ricochet::files::parse;
    use crate::ricochet::solve::{check, solve};

    fn position(text: &str) -> Position {
        let read =
            |name: &str| {
                Ok(match name {
                "open" => "size: [5, 5]\n".to_string(),
                _ => "size: [5, 5]\nwalls: [[1, 0, E], [2, 3, S]]\ndiagonals: [[3, 1, '/', blue]]\n"
                    .to_string(),
            })
            };
        parse("t", text, &read).unwrap()
    }

    /// Every move sequence of exactly `moves` counted moves that `check` accepts, by brute
    /// force (unit costs).
    fn brute(p: &Position, moves: u32) -> Vec<Vec<Move>> {
        let mut found = Vec::new();
        let mut layer: Vec<Vec<Move>> = vec![Vec::new()];
        for _ in 0..moves {
            let mut next = Vec::new();
            for seq in &layer {
                for (robot, _) in &p.robots {
                    for dir in Dir::ALL {
                        let mut s = seq.clone();
                        s.push(Move {
                            robot: *robot,
                            dir,
                            to: None,
                        });
                        let mut q = p.clone();
                        if s.iter().all(|m| q.play(*m).is_ok()) {
                            next.push(s);
                        }
                    }
                }
            }
            layer = next;
        }
        for s in layer {
            if check(p, &s) == Ok(moves) {
                found.push(s);
            }
        }
        found
    }

    #[test]
    fn the_listing_is_every_optimal_solution_in_order() {
        let rows = [
            "board: open\nrobots: {red: [0, 0], green: [4, 1], blue: [2, 2]}\ntarget: {at: [4, 4], robot: red}\n",
            "board: open\nrobots: {red: [0, 0], green: [4, 1]}\ntarget: {at: [4, 4], robot: any}\nrules: {must_ricochet: false}\n",
            "board: walls\nrobots: {red: [0, 0], blue: [4, 4], yellow: [1, 3]}\ntarget: {at: [2, 3], robot: red}\nrules: {no_single_move: true}\n",
            "board: walls\nrobots: {red: [0, 4], green: [4, 0], blue: [0, 2]}\ntarget: {at: [3, 0], robot: red}\nrules: {must_ricochet: false}\n",
        ];
        for text in rows {
            let p = position(text);
            let best = solve(&p, 12).unwrap().moves;
            let got = optimal(&p, best, usize::MAX, Budget::default()).unwrap();
            let mut want = brute(&p, best);
            want.sort_by_key(|s| s.iter().map(|m| (m.robot, m.dir as u8)).collect::<Vec<_>>());
            assert_eq!(got.solutions, want, "{text}");
            assert_eq!(got.count, u128::try_from(want.len()).unwrap(), "{text}");
            let movers = movers(&p, best, Budget::default()).unwrap();
            for (c, _) in &p.robots {
                let moved = |s: &Vec<Move>| s.iter().any(|m| m.robot == *c);
                assert_eq!(movers.every.contains(c), want.iter().all(moved), "{text}");
                assert_eq!(movers.some.contains(c), want.iter().any(moved), "{text}");
            }
        }
    }

    #[test]
    fn the_transparent_robot_s_crossings_count() {
        let p = position(
            "board: walls\nrobots: {transparent: [0, 0], red: [4, 4]}\ntarget: {at: [4, 0], robot: transparent}\nrules: {must_ricochet: false}\n",
        );
        let best = solve(&p, 10).unwrap().moves;
        let got = optimal(&p, best, 100, Budget::default()).unwrap();
        assert!(got.count >= 1);
        assert_eq!(u128::try_from(got.solutions.len()).unwrap(), got.count);
        for s in &got.solutions {
            assert_eq!(check(&p, s), Ok(best), "{s:?}");
        }
    }

    #[test]
    fn the_memo_stops_at_its_budget() {
        let p = position(
            "board: open\nrobots: {red: [0, 0], green: [4, 1], blue: [2, 2]}\ntarget: {at: [4, 4], robot: red}\n",
        );
        let got = optimal(&p, 9, 10, Budget { max_states: 5 });
        assert!(matches!(got, Err(AllError::Budget(_))), "{got:?}");
    }
}
