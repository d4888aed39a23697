//! Shortest paths on a Micro Robots board. From a cell the robot slides along its row or
//! column, any distance, and may stop only on a cell sharing its colour or number (RULES C.1).
//! Positions are `row * 6 + col`; a set of positions is a `u64` bit mask, so a breadth-first
//! search is a few mask operations per layer.

use super::board::{Board, Cell};

/// Where the robot may stop after leaving each position.
#[derive(Clone, Debug)]
pub struct Moves {
    pub from: [u64; 36],
}

impl Moves {
    pub fn new(board: &Board) -> Moves {
        let mut from = [0u64; 36];
        for (p, mask) in from.iter_mut().enumerate() {
            let (row, col) = (p / 6, p % 6);
            let here = board.cell_at(p);
            for q in 0..36 {
                let in_line = (q / 6 == row) != (q % 6 == col);
                if in_line && here.matches(board.cell_at(q)) {
                    *mask |= 1 << q;
                }
            }
        }
        Moves { from }
    }

    /// Every position reachable in one move from any position of `set`.
    pub fn step(&self, set: u64) -> u64 {
        let mut out = 0;
        let mut rest = set;
        while rest != 0 {
            let p = rest.trailing_zeros() as usize;
            out |= self.from[p];
            rest &= rest - 1;
        }
        out
    }

    /// Fewest moves from every position to every position (`u8::MAX`: unreachable).
    pub fn all_distances(&self) -> [[u8; 36]; 36] {
        let mut d = [[u8::MAX; 36]; 36];
        for (s, row) in d.iter_mut().enumerate() {
            let mut seen = 1u64 << s;
            let mut frontier = seen;
            let mut k = 0u8;
            while frontier != 0 {
                let mut rest = frontier;
                while rest != 0 {
                    let p = rest.trailing_zeros() as usize;
                    row[p] = k;
                    rest &= rest - 1;
                }
                frontier = self.step(frontier) & !seen;
                seen |= frontier;
                k += 1;
            }
        }
        d
    }

    /// A shortest path from `a` to `b` (positions, both included), if any.
    pub fn path(&self, a: usize, b: usize) -> Option<Vec<usize>> {
        // Layers of the search from a, then walk back from b through earlier layers.
        let mut layers = vec![1u64 << a];
        let mut seen = 1u64 << a;
        while layers.last().is_some_and(|l| l & (1 << b) == 0) {
            let next = self.step(*layers.last().expect("non-empty")) & !seen;
            if next == 0 {
                return None;
            }
            seen |= next;
            layers.push(next);
        }
        Some(self.back_through(&layers, b))
    }

    /// Walks back from `b` through search layers (`layers[k]`: the positions after k moves),
    /// each step to the lowest position of the layer before that moves to it.
    fn back_through(&self, layers: &[u64], b: usize) -> Vec<usize> {
        let mut path = vec![b];
        for layer in layers.iter().rev().skip(1) {
            let here = *path.last().expect("non-empty");
            let prev = (0..36)
                .find(|&p| layer & (1 << p) != 0 && self.from[p] & (1 << here) != 0)
                .expect("layers connect");
            path.push(prev);
        }
        path.reverse();
        path
    }

    /// A walk of exactly `n` moves from `a` to `b` (positions, both included), if one exists.
    pub fn walk(&self, a: usize, b: usize, n: usize) -> Option<Vec<usize>> {
        let mut layers = vec![1u64 << a];
        for _ in 0..n {
            layers.push(self.step(*layers.last().expect("non-empty")));
        }
        if layers[n] & (1 << b) == 0 {
            return None;
        }
        Some(self.back_through(&layers, b))
    }

    /// Whether `stops` (the cells after the start) is a legal walk from `start`.
    pub fn check(&self, board: &Board, start: Cell, stops: &[Cell]) -> Result<(), IllegalMove> {
        let mut here = board.position(start);
        for (i, cell) in stops.iter().enumerate() {
            let next = board.position(*cell);
            if self.from[here] & (1 << next) == 0 {
                let (number, from, to) = (i + 1, board.cell_at(here), *cell);
                return Err(if next / 6 != here / 6 && next % 6 != here % 6 {
                    IllegalMove::NotInLine { number, from, to }
                } else if next == here {
                    IllegalMove::Stays { number, from, to }
                } else {
                    IllegalMove::NoMatch { number, from, to }
                });
            }
            here = next;
        }
        Ok(())
    }
}

/// A move the rules forbid: its number in the walk (from 1), where it leaves and where it
/// stops.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("move {number}: {from} to {to}: not in the same row or column")]
    NotInLine { number: usize, from: Cell, to: Cell },
    #[error("move {number}: {from} to {to}: the robot must move")]
    Stays { number: usize, from: Cell, to: Cell },
    #[error("move {number}: {from} to {to}: {to} shares neither colour nor number with {from}")]
    NoMatch { number: usize, from: Cell, to: Cell },
}

/// A solution: the number of moves and the cells stopped on, start first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    pub moves: usize,
    pub path: Vec<Cell>,
}

/// Fewest moves from `from` to `to`, stopping on `via` on the way if given.
pub fn solve(board: &Board, from: Cell, to: Cell, via: Option<Cell>) -> Option<Solution> {
    let moves = Moves::new(board);
    let legs: Vec<(Cell, Cell)> = match via {
        Some(v) => vec![(from, v), (v, to)],
        None => vec![(from, to)],
    };
    let mut path = vec![board.position(from)];
    for (a, b) in legs {
        let leg = moves.path(board.position(a), board.position(b))?;
        path.extend(&leg[1..]);
    }
    let cells: Vec<Cell> = path.iter().map(|&p| board.cell_at(p)).collect();
    Some(Solution {
        moves: cells.len() - 1,
        path: cells,
    })
}
