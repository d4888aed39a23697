//! The JSON documents of Micro Robots (docs/FORMATS.md): `micro solve --json`, `micro analyse
//! --json`, and the game record of `micro play --json` (JSON Lines: a `game` line with the
//! board and the variant, a line per mission as it ends, an `end` line with the scores).
//! Explicit output types, built from the solver's answers and the game's notes, so the
//! game's own types carry no serialisation.

use super::analyse::Analysis;
use super::board::Cell;
use super::game::{Game, Variant};
use super::record::Note;
use super::solve::Solution;
use crate::table::report::{FORMAT_VERSION, Fold, PlayerJson, line, tenths};
use serde::Serialize;

/// `micro solve --json`: `{"moves": n, "path": ["P1", …]}`.
#[derive(Serialize)]
pub struct SolutionJson {
    pub moves: usize,
    pub path: Vec<String>,
}

impl From<&Solution> for SolutionJson {
    fn from(s: &Solution) -> Self {
        SolutionJson {
            moves: s.moves,
            path: s.path.iter().map(Cell::to_string).collect(),
        }
    }
}

/// `micro analyse --json`: the fields of [`Analysis`], cells written `P1`.
#[derive(Serialize)]
pub struct AnalysisJson<'a> {
    pub face: &'a str,
    pub arrangements: usize,
    pub pairs_per_arrangement: usize,
    pub distribution: &'a [u64],
    pub unreachable: u64,
    pub arrangements_with_unreachable_pairs: usize,
    pub mean_moves: f64,
    pub hardest_pairs: Vec<PairJson>,
    pub longest_worst_cases: Vec<WorstCaseJson<'a>>,
}

#[derive(Serialize)]
pub struct PairJson {
    pub from: String,
    pub to: String,
    pub mean: f64,
    pub longest: u8,
}

#[derive(Serialize)]
pub struct WorstCaseJson<'a> {
    pub arrangement: &'a str,
    pub longest: u8,
    pub pairs: usize,
}

impl<'a> From<&'a Analysis> for AnalysisJson<'a> {
    fn from(a: &'a Analysis) -> Self {
        AnalysisJson {
            face: &a.face,
            arrangements: a.arrangements,
            pairs_per_arrangement: a.pairs_per_arrangement,
            distribution: &a.distribution,
            unreachable: a.unreachable,
            arrangements_with_unreachable_pairs: a.arrangements_with_unreachable_pairs,
            mean_moves: a.mean_moves,
            hardest_pairs: a
                .hardest_pairs
                .iter()
                .map(|p| PairJson {
                    from: p.from.to_string(),
                    to: p.to.to_string(),
                    mean: p.mean,
                    longest: p.longest,
                })
                .collect(),
            longest_worst_cases: a
                .longest_worst_cases
                .iter()
                .map(|w| WorstCaseJson {
                    arrangement: &w.arrangement,
                    longest: w.longest,
                    pairs: w.pairs,
                })
                .collect(),
        }
    }
}

/// The first line of a Micro Robots record: the board as laid out, the seed, the variant and
/// the table.
#[derive(Serialize)]
pub struct GameJson {
    pub record: &'static str,
    pub format_version: u32,
    pub game: &'static str,
    pub board: String,
    /// The six rows of cells, top to bottom.
    pub rows: Vec<Vec<String>>,
    pub seed: u64,
    /// `standard`, `waypoint` or `no-token`, as `--variant` spells it.
    pub variant: &'static str,
    pub players: Vec<PlayerJson>,
}

/// The `game` line of a Micro Robots game about to be played from `seed` by `players`.
pub fn setup(game: &Game, seed: u64, players: Vec<PlayerJson>) -> String {
    line(&GameJson {
        record: "game",
        format_version: FORMAT_VERSION,
        game: "micro",
        board: game.board().name().to_string(),
        rows: game
            .board()
            .rows()
            .iter()
            .map(|row| row.iter().map(Cell::to_string).collect())
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
pub struct AnnouncementJson {
    pub player: String,
    pub seconds: f64,
    pub moves: u32,
}

#[derive(Serialize)]
pub struct DemonstrationJson {
    pub player: String,
    pub valid: bool,
    /// The cells stopped on, from the start (a valid demonstration only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

#[derive(Serialize)]
pub struct PenaltyJson {
    pub from: String,
    pub to: String,
}

#[derive(Serialize)]
pub struct MissionJson {
    pub record: &'static str,
    pub mission: u32,
    pub rolled_by: String,
    /// `scored`, `failed`, `nobody_found` or `interrupted`.
    pub result: &'static str,
    pub start: String,
    pub waypoint: Option<String>,
    pub target: String,
    /// Whether a token lies on the target (not in the no-token variant).
    pub token: bool,
    /// The fewest moves from the start to the target (through the waypoint), `null` when
    /// there is no way.
    pub fewest: Option<u32>,
    pub announcement: Option<AnnouncementJson>,
    pub demonstration: Option<DemonstrationJson>,
    pub scorer: Option<String>,
    pub penalty: Option<PenaltyJson>,
}

/// Folds a Micro Robots game's notes into record lines, a mission's once it is over.
#[derive(Default)]
pub struct Record {
    mission: Fold<MissionJson>,
}

impl Record {
    /// The lines `note` completes (none, the mission before it, or the last and the end).
    pub fn note(&mut self, note: &Note) -> Vec<String> {
        match note {
            Note::Mission {
                number,
                player,
                start,
                via,
                target,
                token,
                fewest,
            } => self.mission.begin(MissionJson {
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
            }),
            Note::End(end) => self.mission.end(end),
            other => {
                if let Some(mission) = self.mission.current() {
                    mission_note(mission, other);
                }
                Vec::new()
            }
        }
    }
}

/// What a note within a mission adds to it.
fn mission_note(mission: &mut MissionJson, note: &Note) {
    match note {
        Note::Announces {
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
        Note::Wins { player, path, .. } => {
            mission.result = "scored";
            mission.scorer = Some(player.clone());
            mission.demonstration = Some(DemonstrationJson {
                player: player.clone(),
                valid: true,
                path: Some(path.iter().map(Cell::to_string).collect()),
                reason: None,
            });
        }
        Note::Fails { player, why, best } => {
            mission.result = "failed";
            mission.fewest = *best;
            mission.demonstration = Some(DemonstrationJson {
                player: player.clone(),
                valid: false,
                path: None,
                reason: Some(why.clone()),
            });
        }
        Note::Gives { from, to } => {
            mission.penalty = Some(PenaltyJson {
                from: from.clone(),
                to: to.clone(),
            });
        }
        Note::Leaves { .. } => mission.result = "interrupted",
        Note::Start { .. } | Note::Mission { .. } | Note::NobodyFinds { .. } | Note::End(_) => {}
    }
}
