//! What a game of Micro Robots says as it is played: one [`Note`] per event, in order. Its
//! words (`Display`) are the game's log; [`super::report`] folds the notes into a JSON record
//! of the game (docs/FORMATS.md, "Game records"). No serialisation here.

use super::board::{COLOURS, Cell};
use crate::table::End;
use std::fmt;

/// A rolled cell in words: `pink 5 (P5)`.
pub fn roll_words(c: Cell) -> String {
    format!("{} {} ({c})", COLOURS[c.colour()].1, c.number())
}

/// One event of a game, in the order it happens.
#[derive(Clone, Debug, PartialEq)]
pub enum Note {
    /// The first player rolls the robot's first start.
    Start { player: String, cell: Cell },
    /// A mission rolled by `player` (the Oya): from `start` to `target`, through `via` in the
    /// waypoint variant; `token`: a token is placed on the target (not in no-token).
    Mission {
        number: u32,
        player: String,
        start: Cell,
        via: Option<Cell>,
        target: Cell,
        token: bool,
        /// The fewest moves (through the waypoint); `None`: no way at all. Not in the words.
        fewest: Option<u32>,
    },
    /// Nobody announced within the mission's time: the token goes back to the reserve.
    NobodyFinds { minutes: f64 },
    /// The first announcement, `seconds` after the roll.
    Announces {
        seconds: f64,
        player: String,
        moves: u32,
    },
    /// The announcement shown as announced: the path from the start, the token won
    /// (`tokens`: now held).
    Wins {
        player: String,
        path: Vec<Cell>,
        tokens: u32,
    },
    /// The demonstration fails (`why` in words); `best`: the fewest moves, `None` when there
    /// is no way at all.
    Fails {
        player: String,
        why: String,
        best: Option<u32>,
    },
    /// The penalty of a failed demonstration: a token passes from one player to another.
    Gives { from: String, to: String },
    /// A human leaves the table (`quit`, or the end of the input) during the mission: the
    /// game ends.
    Leaves { player: String },
    /// The end of the game (the log's last two lines).
    End(End),
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::Start { player, cell } => {
                write!(f, "{player} rolls the start: {}", roll_words(*cell))
            }
            Note::Mission {
                number,
                player,
                start,
                via,
                target,
                token,
                ..
            } => {
                let what = match via {
                    Some(v) => format!(
                        "waypoint {}, target {}",
                        roll_words(*v),
                        roll_words(*target)
                    ),
                    None if !token => format!("target {} (no token on it)", roll_words(*target)),
                    None => format!("target {}", roll_words(*target)),
                };
                write!(
                    f,
                    "mission {number}: {player} rolls {what}; the robot starts on {start}"
                )
            }
            Note::NobodyFinds { minutes } => write!(
                f,
                "  nobody finds a way within {minutes} minutes: the token goes back to the reserve"
            ),
            Note::Announces {
                seconds,
                player,
                moves,
            } => write!(f, "  after {seconds:.0} s, {player} announces {moves}"),
            Note::Wins {
                player,
                path,
                tokens,
            } => {
                let moves = path.len().saturating_sub(1);
                let cells: Vec<String> = path.iter().map(Cell::to_string).collect();
                write!(
                    f,
                    "  {player} shows {}: {} as announced, and wins the token ({tokens} now)",
                    cells.join(" → "),
                    crate::text::count(moves, "move")
                )
            }
            Note::Fails { player, why, best } => {
                let best = best.map_or("no way at all".into(), |d| format!("the best is {d}"));
                write!(
                    f,
                    "  {player} fails ({why}; {best}): the token goes back to the reserve"
                )
            }
            Note::Gives { from, to } => write!(f, "  {from} gives a token to {to}"),
            Note::Leaves { player } => write!(f, "  {player} leaves the table"),
            Note::End(end) => end.fmt(f),
        }
    }
}
