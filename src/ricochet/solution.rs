//! What the searches return: the fewest counted moves and the moves themselves, recovered by
//! replaying from the start (searches keep cells, not who moved).

use super::board::{Cell, Colour, Dir};
use super::position::{Move, Position};

#[derive(Clone, Debug, PartialEq, Eq)]
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
