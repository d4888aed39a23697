//! `ricochet play --json` and `micro play --json`: the games' notes folded into JSON Lines
//! records (docs/FORMATS.md, "Game records"): a `game` line with the setup, a line per round
//! or mission as it ends, an `end` line with the scores. The output types are this file's;
//! the games' own types carry no serialisation.

use robots::micro::game::{Game as MicroGame, Variant};
use robots::micro::{Cell as MicroCell, record::Note as MicroNote};
use robots::ricochet::play::game::Game as RicochetGame;
use robots::ricochet::play::record::{Note as RicochetNote, Unshown};
use robots::table::{End, Kind, Player};
use serde::Serialize;

/// The version of the records' layout: it changes when a field changes meaning or goes away.
const FORMAT_VERSION: u32 = 1;

/// Seconds to a tenth: the games' clocks (simulated, scripted or measured) are not more
/// precise than that.
fn tenths(seconds: f64) -> f64 {
    (seconds * 10.0).round() / 10.0
}

fn line(value: &impl Serialize) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

#[derive(Serialize)]
pub struct PlayerJson {
    name: String,
    /// `computer` or `human`.
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    strength: Option<u8>,
}

pub fn players(players: &[Player]) -> Vec<PlayerJson> {
    players
        .iter()
        .map(|p| PlayerJson {
            name: p.name.clone(),
            kind: match p.kind {
                Kind::Computer { .. } => "computer",
                Kind::Human => "human",
            },
            strength: match p.kind {
                Kind::Computer { strength } => Some(strength),
                Kind::Human => None,
            },
        })
        .collect()
}

#[derive(Serialize)]
struct ScoreJson {
    player: String,
    tokens: u32,
}

/// The last line of both games' records.
#[derive(Serialize)]
struct EndJson {
    record: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    rounds: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    missions: Option<u32>,
    reason: String,
    scores: Vec<ScoreJson>,
    winners: Vec<String>,
}

fn end_line(end: &End) -> String {
    let round = end.unit == "round";
    line(&EndJson {
        record: "end",
        rounds: round.then_some(end.played),
        missions: (!round).then_some(end.played),
        reason: end.reason.clone(),
        scores: end
            .scores
            .iter()
            .map(|(player, tokens)| ScoreJson {
                player: player.clone(),
                tokens: *tokens,
            })
            .collect(),
        winners: end.winners.clone(),
    })
}

// ------------------------------------------------------------------------ Ricochet

/// A Ricochet move as `ricochet solve --json` writes it: `{"robot":"red","dir":"N"}`, with
/// `"to":[x,y]` on the transparent robot's moves.
#[derive(Serialize)]
pub struct MoveJson {
    robot: &'static str,
    dir: char,
    #[serde(skip_serializing_if = "Option::is_none")]
    to: Option<(u16, u16)>,
}

impl From<&robots::ricochet::position::Move> for MoveJson {
    fn from(m: &robots::ricochet::position::Move) -> Self {
        MoveJson {
            robot: m.robot.name(),
            dir: m.dir.letter(),
            to: m.to,
        }
    }
}

/// The first line of a Ricochet record: the board, the seed, the rules, the table and where
/// the robots start.
#[derive(Serialize)]
struct RicochetGameJson {
    record: &'static str,
    format_version: u32,
    game: &'static str,
    board: String,
    seed: u64,
    /// Ricochets (RULES B.2): a board with robot bases, targets that move.
    ricochets: bool,
    must_ricochet: bool,
    no_single_move: bool,
    players: Vec<PlayerJson>,
    robots: Vec<RobotJson>,
}

#[derive(Serialize)]
struct RobotJson {
    robot: &'static str,
    at: (u16, u16),
}

/// The `game` line of a Ricochet game about to be played from `seed` by `players`.
pub fn ricochet_setup(game: &RicochetGame, seed: u64, players: Vec<PlayerJson>) -> String {
    let board = game.board();
    line(&RicochetGameJson {
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
struct TargetJson {
    symbol: String,
    at: (u16, u16),
    /// The robot that must reach it: a colour, or `any` for the vortex.
    robot: &'static str,
}

#[derive(Serialize)]
struct BidJson {
    player: String,
    seconds: f64,
    moves: u32,
}

/// A bid refused: too late, or raising the player's own (RULES B.1).
#[derive(Serialize)]
struct RefusedJson {
    player: String,
    seconds: f64,
    moves: u32,
    reason: String,
}

#[derive(Serialize)]
struct AttemptJson {
    player: String,
    bid: u32,
    valid: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<Vec<MoveJson>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

#[derive(Serialize)]
struct RoundJson {
    record: &'static str,
    round: u32,
    /// `scored`, `no_bid`, `all_failed`, `no_target` or `interrupted`.
    result: &'static str,
    target: Option<TargetJson>,
    /// The fewest moves to the target (`null`: none within the search's limit).
    fewest: Option<u32>,
    bids: Vec<BidJson>,
    /// The bids refused, in the order made (only when there are some).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    refused: Vec<RefusedJson>,
    attempts: Vec<AttemptJson>,
    scorer: Option<String>,
    /// Ricochets only: where the played target moved (`null`: no free cell, it stayed).
    #[serde(skip_serializing_if = "Option::is_none")]
    target_moves_to: Option<Option<(u16, u16)>>,
}

/// Folds a Ricochet game's notes into record lines, a round's line once the round is over.
#[derive(Default)]
pub struct RicochetRecord {
    round: Option<RoundJson>,
}

impl RicochetRecord {
    /// The lines `note` completes (none, the round before it, or the last round and the end).
    pub fn note(&mut self, note: &RicochetNote) -> Vec<String> {
        let mut done = Vec::new();
        match note {
            RicochetNote::Target {
                round,
                colour,
                symbol,
                at,
                fewest,
            } => {
                done.extend(self.flush());
                self.round = Some(RoundJson {
                    record: "round",
                    round: *round,
                    result: "all_failed",
                    target: Some(TargetJson {
                        symbol: symbol.clone(),
                        at: *at,
                        robot: colour.map_or("any", |c| c.name()),
                    }),
                    fewest: *fewest,
                    bids: Vec::new(),
                    refused: Vec::new(),
                    attempts: Vec::new(),
                    scorer: None,
                    target_moves_to: None,
                });
            }
            RicochetNote::NoTarget { round } => {
                done.extend(self.flush());
                self.round = Some(RoundJson {
                    record: "round",
                    round: *round,
                    result: "no_target",
                    target: None,
                    fewest: None,
                    bids: Vec::new(),
                    refused: Vec::new(),
                    attempts: Vec::new(),
                    scorer: None,
                    target_moves_to: None,
                });
            }
            RicochetNote::End(end) => {
                done.extend(self.flush());
                done.push(end_line(end));
            }
            other => {
                if let Some(round) = self.round.as_mut() {
                    round_note(round, other);
                }
            }
        }
        done
    }

    fn flush(&mut self) -> Option<String> {
        self.round.take().map(|r| line(&r))
    }
}

/// What a note within a round adds to it.
fn round_note(round: &mut RoundJson, note: &RicochetNote) {
    match note {
        RicochetNote::Bid {
            seconds,
            player,
            moves,
            ..
        } => round.bids.push(BidJson {
            player: player.clone(),
            seconds: tenths(*seconds),
            moves: *moves,
        }),
        RicochetNote::Refused {
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
        RicochetNote::NoBid => round.result = "no_bid",
        RicochetNote::Quits(_) => round.result = "interrupted",
        RicochetNote::Fails { player, bid, why } => round.attempts.push(AttemptJson {
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
        RicochetNote::Wins { player, moves, .. } => {
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
        RicochetNote::TargetMoves { to, .. } => round.target_moves_to = Some(*to),
        RicochetNote::NobodySucceeds
        | RicochetNote::Passes { .. }
        | RicochetNote::Target { .. }
        | RicochetNote::NoTarget { .. }
        | RicochetNote::End(_) => {}
    }
}

// ------------------------------------------------------------------------ Micro Robots

/// The first line of a Micro Robots record: the board as laid out, the seed, the variant and
/// the table.
#[derive(Serialize)]
struct MicroGameJson {
    record: &'static str,
    format_version: u32,
    game: &'static str,
    board: String,
    /// The six rows of cells, top to bottom.
    rows: Vec<Vec<String>>,
    seed: u64,
    /// `standard`, `waypoint` or `no-token`, as `--variant` spells it.
    variant: &'static str,
    players: Vec<PlayerJson>,
}

/// The `game` line of a Micro Robots game about to be played from `seed` by `players`.
pub fn micro_setup(game: &MicroGame, seed: u64, players: Vec<PlayerJson>) -> String {
    line(&MicroGameJson {
        record: "game",
        format_version: FORMAT_VERSION,
        game: "micro",
        board: game.board().name().to_string(),
        rows: game
            .board()
            .rows()
            .iter()
            .map(|row| row.iter().map(MicroCell::to_string).collect())
            .collect(),
        seed,
        variant: match game.variant() {
            Variant::Standard => "standard",
            Variant::Waypoint => "waypoint",
            Variant::NoToken => "no-token",
        },
        players,
    })
}

#[derive(Serialize)]
struct AnnouncementJson {
    player: String,
    seconds: f64,
    moves: u32,
}

#[derive(Serialize)]
struct DemonstrationJson {
    player: String,
    valid: bool,
    /// The cells stopped on, from the start (a valid demonstration only).
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

#[derive(Serialize)]
struct PenaltyJson {
    from: String,
    to: String,
}

#[derive(Serialize)]
struct MissionJson {
    record: &'static str,
    mission: u32,
    rolled_by: String,
    /// `scored`, `failed`, `nobody_found` or `interrupted`.
    result: &'static str,
    start: String,
    waypoint: Option<String>,
    target: String,
    /// Whether a token lies on the target (not in the no-token variant).
    token: bool,
    /// The fewest moves from the start to the target (through the waypoint), `null` when
    /// there is no way.
    fewest: Option<u32>,
    announcement: Option<AnnouncementJson>,
    demonstration: Option<DemonstrationJson>,
    scorer: Option<String>,
    penalty: Option<PenaltyJson>,
}

/// Folds a Micro Robots game's notes into record lines, a mission's once it is over.
#[derive(Default)]
pub struct MicroRecord {
    mission: Option<MissionJson>,
}

impl MicroRecord {
    /// The lines `note` completes (none, the mission before it, or the last and the end).
    pub fn note(&mut self, note: &MicroNote) -> Vec<String> {
        let mut done = Vec::new();
        match note {
            MicroNote::Mission {
                number,
                player,
                start,
                via,
                target,
                token,
                fewest,
            } => {
                done.extend(self.flush());
                self.mission = Some(MissionJson {
                    record: "mission",
                    mission: *number,
                    rolled_by: player.clone(),
                    result: "nobody_found",
                    start: start.to_string(),
                    waypoint: via.map(|c| c.to_string()),
                    target: target.to_string(),
                    token: *token,
                    fewest: *fewest,
                    announcement: None,
                    demonstration: None,
                    scorer: None,
                    penalty: None,
                });
            }
            MicroNote::End(end) => {
                done.extend(self.flush());
                done.push(end_line(end));
            }
            other => {
                if let Some(mission) = self.mission.as_mut() {
                    mission_note(mission, other);
                }
            }
        }
        done
    }

    fn flush(&mut self) -> Option<String> {
        self.mission.take().map(|m| line(&m))
    }
}

/// What a note within a mission adds to it.
fn mission_note(mission: &mut MissionJson, note: &MicroNote) {
    match note {
        MicroNote::Announces {
            seconds,
            player,
            moves,
        } => {
            mission.announcement = Some(AnnouncementJson {
                player: player.clone(),
                seconds: tenths(*seconds),
                moves: *moves,
            });
        }
        MicroNote::Wins { player, path, .. } => {
            mission.result = "scored";
            mission.scorer = Some(player.clone());
            mission.demonstration = Some(DemonstrationJson {
                player: player.clone(),
                valid: true,
                path: Some(path.iter().map(MicroCell::to_string).collect()),
                reason: None,
            });
        }
        MicroNote::Fails { player, why, best } => {
            mission.result = "failed";
            mission.fewest = *best;
            mission.demonstration = Some(DemonstrationJson {
                player: player.clone(),
                valid: false,
                path: None,
                reason: Some(why.clone()),
            });
        }
        MicroNote::Gives { from, to } => {
            mission.penalty = Some(PenaltyJson {
                from: from.clone(),
                to: to.clone(),
            });
        }
        MicroNote::Leaves { .. } => mission.result = "interrupted",
        MicroNote::Start { .. }
        | MicroNote::Mission { .. }
        | MicroNote::NobodyFinds { .. }
        | MicroNote::End(_) => {}
    }
}
