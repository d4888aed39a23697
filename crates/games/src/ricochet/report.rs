//! The JSON documents of Ricochet (docs/FORMATS.md): `ricochet solve --json` (one solution or
//! all), `ricochet check --json`, and the game record of `ricochet play --json` (JSON Lines:
//! a `game` line with the setup, a line per round as it ends, an `end` line with the scores).
//! Explicit output types, built from the solver's answers and the game's notes, so the
//! game's own types carry no serialisation.

use super::analysis::all::Optimal;
use super::play::game::Game;
use super::play::record::{Note, Unshown};
use super::position::Move;
use super::solve::solution::Solution;
use crate::table::report::{FORMAT_VERSION, Fold, PlayerJson, line, tenths};
use serde::Serialize;

/// A Ricochet move as `ricochet solve --json` writes it: `{"robot":"red","dir":"N"}`, with
/// `"to":[x,y]` on the transparent robot's moves.
#[derive(Serialize)]
pub struct MoveJson {
    pub robot: &'static str,
    pub dir: char,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<(u16, u16)>,
}

impl From<&Move> for MoveJson {
    fn from(m: &Move) -> Self {
        MoveJson {
            robot: m.robot.name(),
            dir: m.dir.letter(),
            to: m.to,
        }
    }
}

/// `ricochet solve --json`: `{"moves":N,"solution":[{"robot":"red","dir":"N"},…]}`, with
/// `"to":[x,y]` on the transparent robot's moves.
#[derive(Serialize)]
pub struct SolutionJson {
    pub moves: u32,
    pub solution: Vec<MoveJson>,
}

impl From<&Solution> for SolutionJson {
    fn from(s: &Solution) -> Self {
        SolutionJson {
            moves: s.moves,
            solution: s.solution.iter().map(MoveJson::from).collect(),
        }
    }
}

/// `ricochet board --json`: a position as plain data, for other programs (another solver, a
/// drawing): the size, each cell's closed sides as bits (N 1, E 2, S 4, W 8; the edge and the
/// central block's sides included), the central block's cells, the diagonals, the robots and
/// the goal. Cells are `[x, y]`, y from the top.
#[derive(Serialize)]
pub struct PositionJson {
    pub board: String,
    pub width: u16,
    pub height: u16,
    /// Row after row from the top, `width * height` numbers.
    pub walls: Vec<u8>,
    pub blocked: Vec<(u16, u16)>,
    pub diagonals: Vec<DiagonalJson>,
    pub robots: Vec<RobotJson>,
    pub goal: GoalJson,
    pub must_ricochet: bool,
}

#[derive(Serialize)]
pub struct DiagonalJson {
    pub at: (u16, u16),
    /// `\` (a backslash) or `/`.
    pub shape: char,
    pub colour: &'static str,
}

/// The goal: the cell, and the robot that must reach it: a colour, or `any` for the vortex.
#[derive(Serialize)]
pub struct GoalJson {
    pub at: (u16, u16),
    pub robot: &'static str,
}

impl From<&super::position::Position> for PositionJson {
    fn from(p: &super::position::Position) -> Self {
        let b = &p.board;
        let cells = 0..u16::try_from(b.len()).unwrap_or(u16::MAX);
        PositionJson {
            board: b.name.clone(),
            width: b.width,
            height: b.height,
            walls: b.walls.clone(),
            blocked: cells
                .clone()
                .filter(|&c| b.blocked[usize::from(c)])
                .map(|c| b.xy(c))
                .collect(),
            diagonals: cells
                .filter_map(|c| {
                    b.diagonals[usize::from(c)].map(|d| DiagonalJson {
                        at: b.xy(c),
                        shape: if d.backslash { '\\' } else { '/' },
                        colour: d.colour.name(),
                    })
                })
                .collect(),
            robots: p
                .robots
                .iter()
                .map(|&(robot, at)| RobotJson {
                    robot: robot.name(),
                    at: b.xy(at),
                })
                .collect(),
            goal: GoalJson {
                at: b.xy(p.goal.cell),
                robot: p.goal.robot.map_or("any", |c| c.name()),
            },
            must_ricochet: p.rules.must_ricochet,
        }
    }
}

/// `ricochet solve --all --json`: the optimal length, how many solutions have it, and those
/// listed.
#[derive(Serialize)]
pub struct AllJson {
    pub moves: u32,
    pub count: u128,
    pub listed: usize,
    pub solutions: Vec<Vec<MoveJson>>,
}

impl From<&Optimal> for AllJson {
    fn from(found: &Optimal) -> Self {
        AllJson {
            moves: found.moves,
            count: found.count,
            listed: found.solutions.len(),
            solutions: found
                .solutions
                .iter()
                .map(|s| s.iter().map(MoveJson::from).collect())
                .collect(),
        }
    }
}

/// `ricochet check --json`: `{"valid": true, "moves": n}` or `{"valid": false, "reason": …}`.
#[derive(Serialize)]
pub struct CheckJson {
    pub valid: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl CheckJson {
    /// The document of a valid solution of `moves` moves.
    pub fn valid(moves: u32) -> CheckJson {
        CheckJson {
            valid: true,
            moves: Some(moves),
            reason: None,
        }
    }

    /// The document of a solution that is not valid, and why.
    pub fn not_valid(reason: String) -> CheckJson {
        CheckJson {
            valid: false,
            moves: None,
            reason: Some(reason),
        }
    }
}

/// The first line of a Ricochet record: the board, the seed, the rules, the table and where
/// the robots start.
#[derive(Serialize)]
pub struct GameJson {
    pub record: &'static str,
    pub format_version: u32,
    pub game: &'static str,
    pub board: String,
    pub seed: u64,
    /// Ricochets (RULES B.2): a board with robot bases, targets that move.
    pub ricochets: bool,
    pub must_ricochet: bool,
    pub no_single_move: bool,
    pub players: Vec<PlayerJson>,
    pub robots: Vec<RobotJson>,
}

#[derive(Serialize)]
pub struct RobotJson {
    pub robot: &'static str,
    pub at: (u16, u16),
}

/// The `game` line of a Ricochet game about to be played from `seed` by `players`.
pub fn setup(game: &Game, seed: u64, players: Vec<PlayerJson>) -> String {
    let board = game.board();
    line(&GameJson {
        record: "game",
        format_version: FORMAT_VERSION,
        game: "ricochet",
        board: board.name.clone(),
        seed,
        ricochets: game.is_ricochets(),
        must_ricochet: game.rules().must_ricochet,
        no_single_move: game.rules().no_single_move,
        players,
        robots: game
            .robots()
            .iter()
            .map(|&(colour, cell)| RobotJson {
                robot: colour.name(),
                at: board.xy(cell),
            })
            .collect(),
    })
}

#[derive(Serialize)]
pub struct TargetJson {
    pub symbol: String,
    pub at: (u16, u16),
    /// The robot that must reach it: a colour, or `any` for the vortex.
    pub robot: &'static str,
}

#[derive(Serialize)]
pub struct BidJson {
    pub player: String,
    pub seconds: f64,
    pub moves: u32,
}

/// A bid refused: too late, or raising the player's own (RULES B.1).
#[derive(Serialize)]
pub struct RefusedJson {
    pub player: String,
    pub seconds: f64,
    pub moves: u32,
    pub reason: String,
}

#[derive(Serialize)]
pub struct AttemptJson {
    pub player: String,
    pub bid: u32,
    pub valid: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<MoveJson>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

#[derive(Serialize)]
pub struct RoundJson {
    pub record: &'static str,
    pub round: u32,
    /// `scored`, `no_bid`, `all_failed`, `no_target` or `interrupted`.
    pub result: &'static str,
    pub target: Option<TargetJson>,
    /// The fewest moves to the target (`null`: none within the search's limit).
    pub fewest: Option<u32>,
    pub bids: Vec<BidJson>,
    /// The bids refused, in the order made (only when there are some).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refused: Vec<RefusedJson>,
    pub attempts: Vec<AttemptJson>,
    pub scorer: Option<String>,
    /// Ricochets only: where the played target moved (`null`: no free cell, it stayed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_moves_to: Option<Option<(u16, u16)>>,
}

/// Folds a Ricochet game's notes into record lines, a round's line once the round is over.
#[derive(Default)]
pub struct Record {
    round: Fold<RoundJson>,
}

impl Record {
    /// The lines `note` completes (none, the round before it, or the last round and the end).
    pub fn note(&mut self, note: &Note) -> Vec<String> {
        match note {
            Note::Target {
                round,
                colour,
                symbol,
                at,
                fewest,
            } => {
                let target = TargetJson {
                    symbol: symbol.clone(),
                    at: *at,
                    robot: colour.map_or("any", |c| c.name()),
                };
                let round = RoundJson::new(*round, "all_failed", Some(target), *fewest);
                self.round.begin(round)
            }
            Note::NoTarget { round } => {
                self.round
                    .begin(RoundJson::new(*round, "no_target", None, None))
            }
            Note::End(end) => self.round.end(end),
            other => {
                if let Some(round) = self.round.current() {
                    round_note(round, other);
                }
                Vec::new()
            }
        }
    }
}

impl RoundJson {
    /// A round as its target is shown: no bid yet.
    fn new(
        round: u32,
        result: &'static str,
        target: Option<TargetJson>,
        fewest: Option<u32>,
    ) -> RoundJson {
        RoundJson {
            record: "round",
            round,
            result,
            target,
            fewest,
            bids: Vec::new(),
            refused: Vec::new(),
            attempts: Vec::new(),
            scorer: None,
            target_moves_to: None,
        }
    }
}

/// What a note within a round adds to it.
fn round_note(round: &mut RoundJson, note: &Note) {
    match note {
        Note::Bid {
            seconds,
            player,
            moves,
            ..
        } => round.bids.push(BidJson {
            player: player.clone(),
            seconds: tenths(*seconds),
            moves: *moves,
        }),
        Note::Refused {
            seconds,
            player,
            moves,
            why,
        } => round.refused.push(RefusedJson {
            player: player.clone(),
            seconds: tenths(*seconds),
            moves: *moves,
            reason: why.to_string(),
        }),
        Note::NoBid => round.result = "no_bid",
        Note::Quits(_) => round.result = "interrupted",
        Note::Fails { player, bid, why } => round.attempts.push(AttemptJson {
            player: player.clone(),
            bid: *bid,
            valid: false,
            moves: None,
            reason: Some(match why {
                Unshown::Fewest {
                    fewest: Some(n), ..
                } => format!("the fewest is {n}"),
                Unshown::Fewest { within, .. } => format!("no way within {within}"),
                Unshown::Invalid(why) => why.clone(),
                Unshown::Longer(n) => format!("{n} moves, more than the bid"),
            }),
        }),
        Note::Wins { player, moves, .. } => {
            round.attempts.push(AttemptJson {
                player: player.clone(),
                bid: round
                    .bids
                    .iter()
                    .rfind(|b| &b.player == player)
                    .map_or(0, |b| b.moves),
                valid: true,
                moves: Some(moves.iter().map(MoveJson::from).collect()),
                reason: None,
            });
            round.result = "scored";
            round.scorer = Some(player.clone());
        }
        Note::TargetMoves { to, .. } => round.target_moves_to = Some(*to),
        Note::NobodySucceeds
        | Note::Passes { .. }
        | Note::Target { .. }
        | Note::NoTarget { .. }
        | Note::End(_) => {}
    }
}
