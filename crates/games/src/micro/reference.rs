//! A deliberately plain solver, for tests: breadth-first search over cells with a queue and
//! a list of visited cells, moves found by scanning the row and the column. No bit masks.

use super::board::{Board, Cell};
use std::collections::VecDeque;

/// Fewest moves from `a` to `b`, or `None`.
pub fn distance(board: &Board, a: Cell, b: Cell) -> Option<usize> {
    let mut dist: Vec<Option<usize>> = vec![None; 36];
    let mut queue = VecDeque::new();
    dist[a.index()] = Some(0);
    queue.push_back(a);
    while let Some(cell) = queue.pop_front() {
        if cell == b {
            return dist[cell.index()];
        }
        let p = board.position(cell);
        let (row, col) = (p / 6, p % 6);
        let line = (0..6)
            .map(|c| board.rows()[row][c])
            .chain((0..6).map(|r| board.rows()[r][col]));
        for next in line {
            if next != cell && next.matches(cell) && dist[next.index()].is_none() {
                dist[next.index()] = dist[cell.index()].map(|d| d + 1);
                queue.push_back(next);
            }
        }
    }
    None
}
