//! Reading a replay back: its header into a [`MatchSetup`] (checked as a match file is), and
//! its turns compared, one by one, with the engine playing that setup again.

use super::doc::{
    BoardDoc, Header, PlacementDoc, REPLAY_FORMAT_VERSION, ResultLine, SignalDoc, TeamDoc,
    result_line, turn_line,
};
use crate::battle::board::{Board, Cell};
use crate::battle::engine::{
    Event, Match, MatchSetup, RobotSetup, Rules, Scenario, SignalPlan, TeamSetup,
};
use crate::battle::files::match_file::parse_robot_ref;
use crate::battle::hex::Direction;
use crate::battle::show::report::EventDoc;
use crate::battle::terrain::{Form, ShapeColour, TeamColour, Terrain};
use crate::text::{MAX_INPUT_BYTES, escape};
use std::sync::Arc;

/// Why a header line cannot start a replay, in words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct HeaderError(pub String);

fn bad(message: impl Into<String>) -> HeaderError {
    HeaderError(message.into())
}

/// The most robots a match has: six teams of nine.
const MAX_PROGRAMS: usize = 6 * 9;

/// Line 1 of a replay. A replay of format 1 (one JSON document) is recognised and refused
/// with what to do instead.
pub fn parse_header(line: &str) -> Result<Header, HeaderError> {
    #[derive(serde::Deserialize)]
    struct Version {
        format_version: Option<u32>,
    }
    let line = crate::text::strip_bom(line);
    if line.trim() == "{" {
        return Err(bad(
            "this is a replay of format 1 (one JSON document): it names its board but holds \
             no programs, so it cannot be played again; record it anew with `robots run \
             MATCH --replay FILE`",
        ));
    }
    let version: Version = serde_json::from_str(line)
        .map_err(|e| bad(format!("line 1 is not a replay header: {}", short(&e))))?;
    match version.format_version {
        // Format 2 is format 3 without the TI-57 keywords (RULES A.12).
        Some(2 | REPLAY_FORMAT_VERSION) => {}
        Some(v) => {
            return Err(bad(format!(
                "format_version {v}: this robots reads replays of format_version 2 and \
                 {REPLAY_FORMAT_VERSION}"
            )));
        }
        None => return Err(bad("line 1 is not a replay header: no `format_version`")),
    }
    serde_json::from_str(line).map_err(|e| bad(format!("line 1: {}", short(&e))))
}

/// A JSON error, cut short and escaped.
fn short(e: &serde_json::Error) -> String {
    clip(&e.to_string())
}

/// The match a header sets up, checked as a match file is: every program parsed under the
/// rules, every placement on the board, every signal's robot and condition.
pub fn setup_of(header: &Header) -> Result<MatchSetup, HeaderError> {
    let rules = Rules {
        shapes_block: header.rules.shapes_block,
        program_steps: header.rules.program_steps,
        rounds: header.rules.rounds,
        keywords: header.rules.keywords,
    };
    rules.validate().map_err(|e| bad(format!("rules: {e}")))?;
    let scenario = Scenario::from_number(u32::from(header.scenario))
        .ok_or_else(|| bad(format!("scenario {}: expected 1, 2 or 3", header.scenario)))?;
    let board = Arc::new(board_of(&header.board)?);
    if header.programs.len() > MAX_PROGRAMS {
        return Err(bad(format!(
            "{} programs: a match has at most {MAX_PROGRAMS} robots",
            header.programs.len()
        )));
    }
    let mut programs = Vec::new();
    for (i, text) in header.programs.iter().enumerate() {
        if text.len() > MAX_INPUT_BYTES {
            return Err(bad(format!(
                "programs[{i}] is longer than a program file may be"
            )));
        }
        let program = crate::battle::lang::parse_program_in(
            &format!("programs[{i}]"),
            text,
            rules.program_steps,
            rules.keywords,
        )
        .map_err(|d| bad(format!("in the replay's programs[{i}]:\n{d}")))?;
        programs.push((Arc::new(program), Arc::<str>::from(text.as_str())));
    }
    let mut teams = Vec::new();
    for (t, team) in header.teams.iter().enumerate() {
        teams.push(team_of(t, team, &board, &programs)?);
    }
    let mut signals = Vec::new();
    for (i, s) in header.signals.iter().enumerate() {
        signals.push(
            signal_of(s, &teams, rules.keywords).map_err(|m| bad(format!("signals[{i}]: {m}")))?,
        );
    }
    Ok(MatchSetup {
        name: header.match_name.clone(),
        board,
        scenario,
        rules,
        seed: header.seed,
        teams,
        signals,
    })
}

fn colour(word: &str) -> Result<TeamColour, HeaderError> {
    TeamColour::parse(word).ok_or_else(|| {
        bad(format!(
            "unknown team colour `{}`: expected one of {}",
            escape(word),
            TeamColour::names()
        ))
    })
}

fn board_of(doc: &BoardDoc) -> Result<Board, HeaderError> {
    let mut cells = Vec::new();
    // Board::new checks the size; the cells are read only once it can hold them.
    if doc.cells.len() > crate::battle::board::MAX_CELLS {
        return Err(bad("board: more hexes than a board may have"));
    }
    for (i, c) in doc.cells.iter().enumerate() {
        let shape_colour = || {
            c.colour
                .as_deref()
                .and_then(ShapeColour::parse)
                .ok_or_else(|| bad(format!("board.cells[{i}]: a shape needs a shape colour")))
        };
        let terrain = match c.terrain.as_str() {
            "plain" => Terrain::Plain,
            "lake" => Terrain::Lake,
            "lightning" => Terrain::Lightning,
            "shape" => {
                let form = c.form.as_deref().and_then(Form::parse).ok_or_else(|| {
                    bad(format!(
                        "board.cells[{i}]: a shape needs a form (square, triangle, circle)"
                    ))
                })?;
                Terrain::Shape(form, shape_colour()?)
            }
            "computer" => Terrain::Computer(colour(c.colour.as_deref().unwrap_or(""))?),
            other => {
                return Err(bad(format!(
                    "board.cells[{i}]: unknown ground `{}`",
                    escape(other)
                )));
            }
        };
        let camp = c.camp.as_deref().map(colour).transpose()?;
        cells.push(Cell {
            terrain,
            camp,
            start: c.start,
        });
    }
    Board::new(doc.name.clone(), doc.width, doc.height, cells)
        .map_err(|e| bad(format!("board: {e}")))
}

type Programs = [(Arc<crate::battle::lang::Program>, Arc<str>)];

fn team_of(
    t: usize,
    doc: &TeamDoc,
    board: &Board,
    programs: &Programs,
) -> Result<TeamSetup, HeaderError> {
    let colour = colour(&doc.colour)?;
    let mut robots = Vec::new();
    for (i, r) in doc.robots.iter().enumerate() {
        let what = format!("teams[{t}].robots[{i}]");
        let (program, source) = programs.get(r.program).ok_or_else(|| {
            bad(format!(
                "{what}: program {} is not in `programs`",
                r.program
            ))
        })?;
        let at =
            r.at.map(|[col, row]| {
                board
                    .cell_at_position(usize::from(col), usize::from(row))
                    .ok_or_else(|| bad(format!("{what}: [{col}, {row}] is not on the board")))
            })
            .transpose()?;
        let facing = r
            .facing
            .map(|n| {
                Direction::from_number(u32::from(n))
                    .ok_or_else(|| bad(format!("{what}: facing {n}: directions are 1 to 6")))
            })
            .transpose()?;
        robots.push(RobotSetup {
            program: Arc::clone(program),
            origin: r.origin.clone(),
            source: Arc::clone(source),
            at,
            facing,
        });
    }
    Ok(TeamSetup { colour, robots })
}

fn signal_of(
    doc: &SignalDoc,
    teams: &[TeamSetup],
    keywords: crate::battle::lang::Keywords,
) -> Result<SignalPlan, String> {
    let robot =
        parse_robot_ref(&doc.robot, teams).map_err(|e| escape(&e.to_string()).into_owned())?;
    match (doc.round, &doc.when) {
        (Some(round), None) => Ok(SignalPlan::Scheduled {
            round,
            robot,
            step: doc.step,
        }),
        (None, Some(text)) => {
            if text.len() > MAX_INPUT_BYTES {
                return Err("the condition is longer than a file may be".into());
            }
            let when = crate::battle::lang::parse_condition_in("when", text, keywords)
                .map_err(|d| format!("when: {}", d.message))?;
            Ok(SignalPlan::Conditional {
                when,
                text: text.clone(),
                robot,
                step: doc.step,
            })
        }
        _ => Err("give either `round` or `when`".into()),
    }
}

/// Where a replay and this engine part: the robot turn (counted from 1), and what each says.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("robot turn {turn}{at}: {message}")]
pub struct Disagreement {
    pub turn: u64,
    /// ` (round R, green.2)` when the engine knows.
    pub at: String,
    pub message: String,
}

/// A replay read back: the match of its header, played one turn per line, each compared.
pub struct Check {
    game: Match,
    turns: u64,
    events: Vec<Event>,
}

impl Check {
    /// The match of `setup` (from `header`), checked to start as the header says.
    pub fn new(header: &Header, setup: &MatchSetup) -> Result<Check, HeaderError> {
        let game = Match::new(setup).map_err(|e| bad(format!("the match cannot start: {e}")))?;
        let again = Header::new(setup, &game);
        if again.first != header.first {
            return Err(bad(format!(
                "the replay says {} plays first; this engine draws {}",
                escape(&header.first),
                again.first
            )));
        }
        if again.placements != header.placements {
            let (said, drawn) = header
                .placements
                .iter()
                .map(Some)
                .chain(std::iter::repeat(None))
                .zip(&again.placements)
                .find(|(a, b)| a != &Some(*b))
                .map_or((None, None), |(a, b)| (a, Some(b)));
            let show = |p: Option<&PlacementDoc>| {
                p.map_or("nothing".to_string(), |p| {
                    format!(
                        "{} at [{}, {}] facing {}",
                        escape(&p.robot),
                        p.at[0],
                        p.at[1],
                        p.facing
                    )
                })
            };
            return Err(bad(format!(
                "the placements differ: the replay says {}, this engine places {}",
                show(said),
                show(drawn)
            )));
        }
        Ok(Check {
            game,
            turns: 0,
            events: Vec::new(),
        })
    }

    pub fn game(&self) -> &Match {
        &self.game
    }

    /// The events of the last turn checked.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The match as far as it has been checked.
    pub fn into_game(self) -> Match {
        self.game
    }

    /// Robot turns checked so far.
    pub fn turns(&self) -> u64 {
        self.turns
    }

    fn disagree(&self, turn: u64, message: String) -> Disagreement {
        let at = match self.events.first() {
            Some(Event::Turn { round, robot }) => format!(" (round {round}, {robot})"),
            _ => String::new(),
        };
        Disagreement { turn, at, message }
    }

    /// The next line: a robot turn, played and compared (its events if they agree), or the
    /// result line, compared with how the match ended (`None` if it agrees).
    pub fn line(&mut self, line: &str) -> Result<Option<&[Event]>, Disagreement> {
        let turn = self.turns + 1;
        if line.trim_start().starts_with('{') {
            self.result(line)?;
            return Ok(None);
        }
        self.events.clear();
        if !self.game.step_into(&mut self.events) {
            return Err(self.disagree(turn, "the match is over, but the replay goes on".into()));
        }
        self.turns = turn;
        // The line as this engine writes it: the same bytes, in the usual case.
        if turn_line(&self.events) == line {
            return Ok(Some(&self.events));
        }
        let recorded: serde_json::Value = serde_json::from_str(line)
            .map_err(|e| self.disagree(turn, format!("not a line of events: {}", short(&e))))?;
        let played: Vec<EventDoc> = self.events.iter().map(EventDoc::new).collect();
        let played = serde_json::to_value(&played).unwrap_or_default();
        if played != recorded {
            return Err(self.disagree(turn, difference(&recorded, &played)));
        }
        Ok(Some(&self.events))
    }

    /// The result line, compared with how the match ended.
    fn result(&self, line: &str) -> Result<(), Disagreement> {
        let turn = self.turns + 1;
        let Some(outcome) = self.game.outcome() else {
            return Err(Disagreement {
                turn,
                at: format!(" (round {})", self.game.state().round()),
                message: "the replay ends here, but the match goes on".into(),
            });
        };
        let said: ResultLine = serde_json::from_str(line).map_err(|e| Disagreement {
            turn,
            at: String::new(),
            message: format!(
                "the match is over, but the line is no result: {}",
                short(&e)
            ),
        })?;
        let ours = result_line(outcome, self.turns);
        let ours: ResultLine = serde_json::from_str(&ours).map_err(|e| Disagreement {
            turn,
            at: String::new(),
            message: short(&e),
        })?;
        if said != ours {
            return Err(Disagreement {
                turn,
                at: String::new(),
                message: format!(
                    "the result differs: the replay says {}, this engine {}",
                    clip(&serde_json::to_string(&said.result).unwrap_or_default()),
                    clip(&serde_json::to_string(&ours.result).unwrap_or_default())
                ),
            });
        }
        Ok(())
    }
}

/// What differs between a recorded turn and the one played: the first event that does.
fn difference(recorded: &serde_json::Value, played: &serde_json::Value) -> String {
    let (Some(a), Some(b)) = (recorded.as_array(), played.as_array()) else {
        return format!("the replay says {}", clip(&recorded.to_string()));
    };
    let i = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let show =
        |v: Option<&serde_json::Value>| v.map_or("no more events".into(), |v| clip(&v.to_string()));
    format!(
        "event {}: the replay says {}, this engine {}",
        i + 1,
        show(a.get(i)),
        show(b.get(i))
    )
}

/// A piece of JSON for a message: at most 160 characters, escaped.
fn clip(text: &str) -> String {
    let cut: String = text.chars().take(160).collect();
    let cut = if cut.len() < text.len() {
        cut + "…"
    } else {
        cut
    };
    escape(&cut).into_owned()
}
