//! The lines of a replay: the header made from a setup, a robot turn's line, the result.

use crate::battle::board::Board;
use crate::battle::engine::{Event, Match, MatchSetup, Outcome, SignalPlan};
use crate::battle::lang::Keywords;
use crate::battle::show::report::{EventDoc, reason_code};
use crate::battle::terrain::Terrain;
use serde::{Deserialize, Serialize};

/// The version of the replay format; 1 was one JSON document naming its board.
pub const REPLAY_FORMAT_VERSION: u32 = 3;
/// The longest header line read: a largest board and the texts of many programs fit.
pub const MAX_HEADER_BYTES: usize = 32 << 20;
/// The longest turn or result line read; one robot turn's events take a few kilobytes.
pub const MAX_TURN_BYTES: usize = 1 << 20;
/// The most lines a replay holds: the header, a line per robot turn of the longest match
/// (100,000 rounds, the most `--rounds` gives, of 6 teams of 9 robots: 5.4 million turns)
/// and the result, with room to spare.
pub const MAX_REPLAY_LINES: u64 = 6_000_000;
/// The most bytes a replay holds, decompressed: a writer stops before it, a reader refuses
/// past it.
pub const MAX_REPLAY_BYTES: u64 = 4 << 30;
/// What a replay may hold in all (docs/FORMATS.md, "Replays"); blank lines hardly.
pub const REPLAY_BUDGET: crate::text::lines::Budget = crate::text::lines::Budget {
    bytes: MAX_REPLAY_BYTES,
    lines: MAX_REPLAY_LINES,
    blank_bytes: crate::text::lines::Budget::BLANK_BYTES,
};

/// Line 1 of a replay.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    pub format_version: u32,
    #[serde(rename = "match")]
    pub match_name: String,
    pub scenario: u8,
    pub rules: RulesDoc,
    pub seed: u64,
    pub board: BoardDoc,
    /// Every distinct program text, as written; robots name one by its index.
    pub programs: Vec<String>,
    pub teams: Vec<TeamDoc>,
    #[serde(default)]
    pub signals: Vec<SignalDoc>,
    /// How the match started: the colour of the team that plays first…
    pub first: String,
    /// …and where every robot stood, facing where.
    pub placements: Vec<PlacementDoc>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesDoc {
    pub shapes_block: bool,
    pub program_steps: usize,
    pub rounds: u32,
    /// `plain` or `ti57` (RULES A.12); absent in format 2, which knew the plain language only.
    #[serde(default, with = "keywords_name")]
    pub keywords: Keywords,
}

/// [`Keywords`] as its name: `plain`, `ti57`.
mod keywords_name {
    use crate::battle::lang::Keywords;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(k: &Keywords, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(k.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Keywords, D::Error> {
        let text = String::deserialize(d)?;
        Keywords::parse(&text).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "`{}` is not a language: expected `plain` or `ti57`",
                crate::text::escape(&text.chars().take(40).collect::<String>())
            ))
        })
    }
}

/// The board's contents: its cells row by row, `width` to a row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardDoc {
    pub name: String,
    pub width: usize,
    pub height: usize,
    pub cells: Vec<CellDoc>,
}

/// A hex: its ground (`plain`, `lake`, `lightning`, `shape`, `computer`), a shape's form and
/// colour or a computer's team colour, the camp it belongs to, and whether it is a start point.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CellDoc {
    #[serde(rename = "t")]
    pub terrain: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub form: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colour: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub camp: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub start: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeamDoc {
    pub colour: String,
    pub robots: Vec<RobotDoc>,
}

/// A robot as the match file set it up: its program (an index into `programs`), where that
/// came from, and a fixed placement if the file gave one (null: drawn from the seed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RobotDoc {
    pub program: usize,
    pub origin: String,
    pub at: Option<[u16; 2]>,
    pub facing: Option<u8>,
}

/// A signal of the match file: sent in `round`, or whenever `when` holds (R-A15).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignalDoc {
    pub robot: String,
    pub step: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when: Option<String>,
}

/// Where a robot started.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlacementDoc {
    pub robot: String,
    pub at: [u16; 2],
    pub facing: u8,
}

/// The last line: how the match ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultLine {
    pub result: ResultDoc,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultDoc {
    /// The winning team's colour, or null for a draw.
    pub winner: Option<String>,
    pub reason: String,
    pub rounds: u32,
    /// Robot turns played.
    pub turns: u64,
}

impl Header {
    /// The header of a match about to be played: `game` is `setup` before its first turn.
    pub fn new(setup: &MatchSetup, game: &Match) -> Header {
        let board = game.board();
        let at = |cell| {
            let (col, row) = board.offset(cell);
            [coordinate(col), coordinate(row)]
        };
        let mut programs: Vec<String> = Vec::new();
        let mut index_of = |source: &str| {
            programs
                .iter()
                .position(|p| p == source)
                .unwrap_or_else(|| {
                    programs.push(source.to_string());
                    programs.len() - 1
                })
        };
        let teams = setup
            .teams
            .iter()
            .map(|team| TeamDoc {
                colour: team.colour.to_string(),
                robots: team
                    .robots
                    .iter()
                    .map(|r| RobotDoc {
                        program: index_of(&r.source),
                        origin: r.origin.clone(),
                        at: r.at.map(at),
                        facing: r.facing.map(|d| d.number()),
                    })
                    .collect(),
            })
            .collect();
        Header {
            format_version: REPLAY_FORMAT_VERSION,
            match_name: setup.name.clone(),
            scenario: setup.scenario.number(),
            rules: RulesDoc {
                shapes_block: setup.rules.shapes_block,
                program_steps: setup.rules.program_steps,
                rounds: setup.rules.rounds,
                keywords: setup.rules.keywords,
            },
            seed: setup.seed,
            board: board_doc(board),
            programs,
            teams,
            signals: setup.signals.iter().map(|s| signal_doc(setup, s)).collect(),
            first: game.team(game.first_team()).colour.to_string(),
            placements: game
                .robots()
                .iter()
                .map(|r| PlacementDoc {
                    robot: r.name.to_string(),
                    at: at(r.cell),
                    facing: r.facing.number(),
                })
                .collect(),
        }
    }
}

/// A board coordinate (below 200) as written in files.
fn coordinate(n: usize) -> u16 {
    u16::try_from(n).unwrap_or(u16::MAX)
}

fn board_doc(board: &Board) -> BoardDoc {
    let cells = board
        .cells()
        .map(|(_, cell)| {
            let (terrain, form, colour) = match cell.terrain {
                Terrain::Plain => ("plain", None, None),
                Terrain::Lake => ("lake", None, None),
                Terrain::Lightning => ("lightning", None, None),
                Terrain::Shape(form, colour) => ("shape", Some(form.name()), Some(colour.name())),
                Terrain::Computer(colour) => ("computer", None, Some(colour.name())),
            };
            CellDoc {
                terrain: terrain.into(),
                form: form.map(Into::into),
                colour: colour.map(Into::into),
                camp: cell.camp.map(|c| c.to_string()),
                start: cell.start,
            }
        })
        .collect();
    BoardDoc {
        name: board.name.clone(),
        width: board.width,
        height: board.height,
        cells,
    }
}

fn signal_doc(setup: &MatchSetup, plan: &SignalPlan) -> SignalDoc {
    let r = plan.robot();
    let robot = setup
        .teams
        .get(r.team)
        .map_or_else(|| format!("teams[{}]", r.team), |t| t.colour.to_string());
    let robot = format!("{robot}.{}", r.number);
    match plan {
        SignalPlan::Scheduled { round, step, .. } => SignalDoc {
            robot,
            step: *step,
            round: Some(*round),
            when: None,
        },
        SignalPlan::Conditional { text, step, .. } => SignalDoc {
            robot,
            step: *step,
            round: None,
            when: Some(text.clone()),
        },
    }
}

/// The line of one robot turn: the JSON array of its events, without a line break.
pub fn turn_line(events: &[Event]) -> String {
    let docs: Vec<EventDoc> = events.iter().map(EventDoc::new).collect();
    serde_json::to_string(&docs).unwrap_or_default()
}

/// The last line, once the match is over.
pub fn result_line(outcome: &Outcome, turns: u64) -> String {
    let line = ResultLine {
        result: ResultDoc {
            winner: outcome.winner.map(|w| w.to_string()),
            reason: reason_code(outcome.reason).to_string(),
            rounds: outcome.rounds,
            turns,
        },
    };
    serde_json::to_string(&line).unwrap_or_default()
}
