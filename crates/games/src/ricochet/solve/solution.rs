//! What the searches return: the fewest counted moves and the moves themselves, recovered by
//! replaying from the start (searches keep cells, not who moved).

use crate::ricochet::board::{Cell, Colour, Dir};
use crate::ricochet::position::{Move, Position};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    pub moves: u32,
    pub solution: Vec<Move>,
}

impl Solution {
    /// A graded hint of this optimal solution, in words (`ricochet play`'s `hint`, rooms'
    /// hints): level 1 the fewest moves, 2 the robots it moves, 3 (and above) its first move, in
    /// the words of `ricochet hint`.
    pub fn hint(&self, level: u8) -> String {
        match level {
            0 | 1 => format!("fewest moves: {}", self.moves),
            2 => {
                let mut moved: Vec<String> =
                    self.solution.iter().map(|m| m.robot.to_string()).collect();
                moved.sort_unstable();
                moved.dedup();
                let list = match moved.split_last() {
                    Some((last, rest)) if !rest.is_empty() => {
                        format!("{} and {last}", rest.join(", "))
                    }
                    _ => moved.concat(),
                };
                format!("an optimal solution moves {list}")
            }
            _ => format!(
                "first move of an optimal solution: {}",
                self.solution
                    .first()
                    .map(ToString::to_string)
                    .unwrap_or_default()
            ),
        }
    }
}

/// Why no solution came back.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NoSolution {
    /// None within `max` counted moves.
    #[error("no solution within {0} moves")]
    Limit(u32),
    /// The search held this many states, its [`Budget`], before it found an answer.
    #[error("gave up after {0} states")]
    Budget(u64),
    /// A position built in code that breaks what the searches assume
    /// ([`Position::is_well_formed`]).
    #[error("the position is not well formed (robots of one colour, or off the board)")]
    Malformed,
}

/// How much a search may hold before it gives up: states kept, counted by each tier as it
/// holds them (the parallel search of standard positions, at 4 bytes a state, counts 16 as
/// one). The default, 7 million, keeps the general search (about 150 bytes a state, with
/// its map's spare room) near 1 GiB, and lets the hardest standard positions (about 21
/// million states, 1.3 million counted) through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub max_states: u64,
}

impl Budget {
    pub const DEFAULT_STATES: u64 = 7_000_000;
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_states: Self::DEFAULT_STATES,
        }
    }
}

/// States held between two progress reports.
const REPORT_EVERY: u64 = 1 << 18;

/// A search's budget and its progress reports: `charge` once per expanded state (or batch),
/// never per successor.
pub struct Meter<'a> {
    budget: Budget,
    progress: &'a mut dyn FnMut(u64),
    next_report: u64,
}

impl<'a> Meter<'a> {
    pub fn new(budget: Budget, progress: &'a mut dyn FnMut(u64)) -> Meter<'a> {
        Meter {
            budget,
            progress,
            next_report: REPORT_EVERY,
        }
    }

    /// The search holds `held` states: `Err` once that reaches the budget; a progress report
    /// every [`REPORT_EVERY`] states.
    #[inline]
    pub fn charge(&mut self, held: usize) -> Result<(), NoSolution> {
        let held = u64::try_from(held).unwrap_or(u64::MAX);
        if held >= self.next_report {
            self.next_report = held.saturating_add(REPORT_EVERY);
            (self.progress)(held);
        }
        if held >= self.budget.max_states {
            return Err(NoSolution::Budget(held));
        }
        Ok(())
    }

    pub fn budget(&self) -> Budget {
        self.budget
    }
}

/// The real moves, with colours, that take the position through the given robot layouts
/// (each layout as a multiset of cells per role).
pub(super) fn relabel(p: &Position, layouts: &[[Cell; 6]]) -> Vec<Move> {
    let mut pos = p.clone();
    let mut moves = Vec::new();
    let plain = p.board.diagonals.iter().all(Option::is_none);
    for want in layouts.iter().skip(1) {
        let mut wanted: Vec<Cell> = want[..p.robots.len()].to_vec();
        wanted.sort_unstable();
        if let Some((m, trial)) = plain.then(|| direct(&pos, &wanted)).flatten() {
            moves.push(m);
            pos = trial;
            continue;
        }
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

/// On a board without diagonals, the one move that takes `pos` to the layout `wanted` (its
/// cells sorted) when a robot other than the transparent one makes it: the robot on the one
/// cell left, towards the one cell reached. `None` when that is not so (the caller tries
/// every move).
fn direct(pos: &Position, wanted: &[Cell]) -> Option<(Move, Position)> {
    let mut left = pos
        .robots
        .iter()
        .filter(|(_, c)| wanted.binary_search(c).is_err());
    let (&(robot, from), None) = (left.next()?, left.next()) else {
        return None;
    };
    let to = *wanted
        .iter()
        .find(|&&c| pos.robots.iter().all(|&(_, r)| r != c))?;
    let ((fx, fy), (tx, ty)) = (pos.board.xy(from), pos.board.xy(to));
    let dir = match (fx == tx, fy == ty) {
        (false, true) if tx > fx => Dir::E,
        (false, true) => Dir::W,
        (true, false) if ty > fy => Dir::S,
        (true, false) => Dir::N,
        _ => return None,
    };
    if robot == Colour::Transparent {
        return None;
    }
    let m = Move {
        robot,
        dir,
        to: None,
    };
    let mut trial = pos.clone();
    (trial.play(m).ok()?.0 == to).then_some((m, trial))
}
