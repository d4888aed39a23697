//! Match files (docs/FORMATS.md): board, scenario, rules, seed, teams, signals. Turned into a
//! [`MatchSetup`] with errors that name the file, the line and the field.
//!
//! Files are read through a `read` callback, so the library does no I/O of its own.

use crate::battle::board::Board;
use crate::battle::board::CellId;
use crate::battle::engine::{
    MatchSetup, RobotName, RobotNameError, RobotRef, RobotSetup, Rules, Scenario, SetupError,
    SignalPlan, TeamSetup,
};
use crate::battle::hex::Direction;
use crate::battle::lang::{Keywords, Program};
use crate::battle::terrain::TeamColour;
use crate::text::confine::{Confine, Fetched};
use crate::text::diagnostic::Diagnostic;
use serde::Deserialize;
use std::path::Path;
use std::sync::Arc;

mod named;
pub use named::{Fetcher, Reader};
use named::{Named, load_board, private, program_source};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MatchFile {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    description: Option<String>,
    board: String,
    #[serde(default = "scenario_one")]
    scenario: u32,
    #[serde(default)]
    rules: RulesFile,
    #[serde(default)]
    seed: Option<u64>,
    teams: Vec<TeamFile>,
    #[serde(default)]
    signals: Vec<SignalFile>,
}

fn scenario_one() -> u32 {
    1
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RulesFile {
    shapes_block: Option<bool>,
    program_steps: Option<usize>,
    rounds: Option<u32>,
    keywords: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TeamFile {
    #[serde(alias = "color")]
    colour: String,
    robots: Vec<RobotFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RobotFile {
    /// A `.robot` file (relative to the match file) or the name of a shipped program.
    program: Option<String>,
    /// The program text itself.
    code: Option<String>,
    at: Option<[i64; 2]>,
    facing: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SignalFile {
    round: Option<u32>,
    when: Option<String>,
    robot: String,
    step: u32,
}

/// The longest match a file may ask for (`rules.rounds`): a file from a stranger should not
/// make `robots run` work for minutes. A longer match is the user's own request, on the
/// command line (`--rounds`).
pub const MAX_FILE_ROUNDS: u32 = 1000;

/// The default seed when neither the file nor the command line gives one.
pub const DEFAULT_SEED: u64 = 1;

/// A value read from the file, with the `(line, column)` of each of its entries.
type Located<T> = (T, Vec<(usize, usize)>);

/// Where the entries of a match file sit, to point errors from the domain at them.
struct Places {
    /// Each team's `colour:` key.
    teams: Vec<(usize, usize)>,
    /// Each robot's `at:` key (or where its entry starts), per team.
    robots: Vec<Vec<(usize, usize)>>,
    /// Each signal's `robot:` key.
    signals: Vec<(usize, usize)>,
    /// The teams' colours, once read.
    colours: Vec<TeamColour>,
}

/// What every step of reading a match file needs: its name, text, folder and reader.
struct Ctx<'a> {
    file: &'a str,
    source: &'a str,
    named: Named<'a>,
    /// Warnings met on the way (docs/LANGUAGE.md): about the programs the match names, in
    /// their own files, and about its signals.
    warnings: std::cell::RefCell<Vec<Diagnostic>>,
}

impl Ctx<'_> {
    /// The position of `key`, searching from line `after` (semantic errors point at keys).
    fn key(&self, key: &str, after: usize) -> (usize, usize) {
        crate::text::yaml::locate_key(self.source, key, after).unwrap_or((1, 1))
    }

    fn err(&self, (line, col): (usize, usize), message: String) -> Diagnostic {
        Diagnostic::at(self.file, self.source, line, col, message)
    }

    /// A [`SetupError`] pointed at the entry it is about.
    fn locate(&self, places: &Places, e: &SetupError) -> Diagnostic {
        let robot_place = |t: usize, i: usize| places.robots[t][i];
        let name = |t: usize, i: usize| match places.colours.get(t) {
            Some(colour) => format!("{colour}.{}", i + 1),
            None => format!("teams[{t}].robots[{i}]"),
        };
        let what = |t: usize, i: usize| format!("teams[{t}].robots[{i}] ({})", name(t, i));
        match e {
            SetupError::ProgramSteps(_) => self.err(self.key("program_steps", 1), e.to_string()),
            SetupError::NoRounds => self.err(self.key("rounds", 1), e.to_string()),
            SetupError::NoTeams => self.err(self.key("teams", 1), e.to_string()),
            SetupError::SameColour { team, .. } | SetupError::TeamSize { team, .. } => {
                self.err(places.teams[*team], format!("teams[{team}]: {e}"))
            }
            SetupError::NoCamp { team, .. } | SetupError::NoComputer { team, .. } => {
                self.err(places.teams[*team], e.to_string())
            }
            SetupError::ProgramTooLong { team, robot, .. }
            | SetupError::NeedsTi57 { team, robot }
            | SetupError::BadPlacement { team, robot, .. } => self.err(
                robot_place(*team, *robot),
                format!("{}: {e}", what(*team, *robot)),
            ),
            SetupError::Taken { team, robot } | SetupError::NoFreeStartPoint { team, robot } => {
                let message = e.to_string().replace(
                    &format!("teams[{team}].robots[{robot}]"),
                    &name(*team, *robot),
                );
                self.err(robot_place(*team, *robot), message)
            }
            SetupError::Signal(i, inner) => {
                self.err(places.signals[*i], format!("signals[{i}]: {inner}"))
            }
        }
    }
}

/// Loads a match file. `file` is its path (for diagnostics and relative paths). The file
/// layer reads the text and says where; [`MatchSetup::validate`] says what is wrong. Files
/// the match names are read through `read` if `confine` allows their paths.
pub fn parse_match(
    file: &str,
    source: &str,
    read: &Reader,
    confine: Confine,
) -> Result<MatchSetup, Diagnostic> {
    check_match(file, source, read, confine).map(|(setup, _)| setup)
}

/// [`parse_match`] with the round limit given on the command line (`robots run --rounds
/// N`), which replaces the file's `rules.rounds`: a file asking for more than
/// [`MAX_FILE_ROUNDS`] is then read, since the user chose the match's length.
/// The files the match names come through `fetch`, which says which lie outside its folder.
pub fn parse_match_rounds(
    file: &str,
    source: &str,
    fetch: &Fetcher,
    confine: Confine,
    rounds: Option<u32>,
) -> Result<MatchSetup, Diagnostic> {
    read_match(file, source, fetch, confine, rounds).map(|(setup, _)| setup)
}

/// [`check_match`], the files the match names coming through `fetch`, which says which lie
/// outside its folder.
pub fn check_match_fetched(
    file: &str,
    source: &str,
    fetch: &Fetcher,
    confine: Confine,
) -> Result<(MatchSetup, Vec<Diagnostic>), Diagnostic> {
    read_match(file, source, fetch, confine, None)
}

/// [`parse_match`], with the warnings about the match and the programs it names
/// (docs/LANGUAGE.md, "Warnings"), each once, in the order met.
pub fn check_match(
    file: &str,
    source: &str,
    read: &Reader,
    confine: Confine,
) -> Result<(MatchSetup, Vec<Diagnostic>), Diagnostic> {
    let fetch = |path: &Path| read(path).map(Fetched::from);
    read_match(file, source, &fetch, confine, None)
}

fn read_match(
    file: &str,
    source: &str,
    read: &Fetcher,
    confine: Confine,
    rounds: Option<u32>,
) -> Result<(MatchSetup, Vec<Diagnostic>), Diagnostic> {
    let raw: MatchFile = crate::text::yaml::from_str(file, source)?;
    let _ = &raw.description;
    let ctx = Ctx {
        file,
        source,
        named: Named {
            base: Path::new(file)
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_default(),
            read,
            confine,
        },
        warnings: std::cell::RefCell::new(Vec::new()),
    };
    let mut places = Places {
        teams: Vec::new(),
        robots: Vec::new(),
        signals: Vec::new(),
        colours: Vec::new(),
    };
    let scenario = Scenario::from_number(raw.scenario).ok_or_else(|| {
        ctx.err(
            ctx.key("scenario", 1),
            format!(
                "scenario {} does not exist: expected 1, 2 or 3",
                raw.scenario
            ),
        )
    })?;
    let defaults = Rules::default();
    let keywords = match &raw.rules.keywords {
        None => Keywords::Plain,
        Some(text) => {
            Keywords::from_name(text).map_err(|m| ctx.err(ctx.key("keywords", 1), m.to_string()))?
        }
    };
    let rules = Rules {
        shapes_block: raw.rules.shapes_block.unwrap_or(defaults.shapes_block),
        program_steps: raw.rules.program_steps.unwrap_or(keywords.default_steps()),
        rounds: rounds.or(raw.rules.rounds).unwrap_or(defaults.rounds),
        keywords,
    };
    rules.validate().map_err(|e| ctx.locate(&places, &e))?;
    if rounds.is_none() && rules.rounds > MAX_FILE_ROUNDS {
        return Err(ctx.err(
            ctx.key("rounds", 1),
            format!(
                "rounds: {} is more than a match file may ask ({MAX_FILE_ROUNDS}); a longer match is asked on the command line: `robots run FILE --rounds N`",
                rules.rounds
            ),
        ));
    }
    let board =
        load_board(&raw.board, &ctx.named).map_err(|msg| ctx.err(ctx.key("board", 1), msg))?;
    if raw.teams.is_empty() {
        return Err(ctx.locate(&places, &SetupError::NoTeams));
    }
    places.teams = team_places(&ctx, raw.teams.len());
    let mut teams: Vec<TeamSetup> = Vec::new();
    for (t, team) in raw.teams.iter().enumerate() {
        let (setup, robot_places) = read_team(&ctx, t, team, places.teams[t], &board, &rules)?;
        places.colours.push(setup.colour);
        teams.push(setup);
        places.robots.push(robot_places);
    }
    let (signals, signal_places) = read_signals(&ctx, &raw.signals, &teams, &rules)?;
    places.signals = signal_places;
    let name = raw.name.unwrap_or_else(|| {
        Path::new(file)
            .file_stem()
            .map_or("match".into(), |s| s.to_string_lossy().into_owned())
    });
    let setup = MatchSetup {
        name,
        board: Arc::new(board),
        scenario,
        rules,
        seed: raw.seed.unwrap_or(DEFAULT_SEED),
        teams,
        signals,
    };
    setup.validate().map_err(|e| ctx.locate(&places, &e))?;
    lint_signals(&ctx, &setup, &places, &raw.signals);
    let mut warnings = ctx.warnings.into_inner();
    let mut seen = std::collections::BTreeSet::new();
    warnings.retain(|w| seen.insert((w.file.clone(), w.line, w.col, w.id)));
    Ok((setup, warnings))
}

/// Signals that will do nothing (R-A14) and conditions that can never hold.
fn lint_signals(ctx: &Ctx, setup: &MatchSetup, places: &Places, raw: &[SignalFile]) {
    use crate::battle::lang::lint::{Context, WarningId, never_holds};
    let robots = setup.teams.iter().map(|t| t.robots.len()).sum::<usize>();
    for (i, plan) in setup.signals.iter().enumerate() {
        let r = plan.robot();
        let team = &setup.teams[r.team];
        let program = &team.robots[usize::from(r.number) - 1].program;
        let name = format!("{}.{}", team.colour, r.number);
        let step = plan.step();
        let at = places.signals[i];
        let warn = |place: (usize, usize), id: WarningId, message: String| {
            let mut d = ctx.err(place, format!("signals[{i}]: {message}"));
            d.severity = crate::text::diagnostic::Severity::Warning;
            d.id = Some(id.code());
            ctx.warnings.borrow_mut().push(d);
        };
        match program.instruction(usize::from(step)) {
            None => warn(
                at,
                WarningId::SignalDoesNothing,
                format!(
                    "step {step} of {name}'s program is empty (it has {}): the signal will do nothing and spend the turn (R-A14)",
                    crate::text::count(program.len(), "step")
                ),
            ),
            Some(instruction) if !instruction.is_action() => warn(
                at,
                WarningId::SignalDoesNothing,
                format!(
                    "step {step} of {name}'s program is `{}`, a control step: the signal will do nothing and spend the turn (R-A14); name a move, turn, shot or explosion",
                    program.notation(instruction)
                ),
            ),
            Some(_) => {}
        }
        if let SignalPlan::Conditional { when, .. } = plan {
            let context = Context {
                teams: setup.teams.iter().map(|t| t.colour).collect(),
                robots: u32::try_from(robots).unwrap_or(u32::MAX),
                shots: u32::from(crate::battle::engine::SHOTS),
                steps: u32::try_from(program.len()).unwrap_or(u32::MAX),
            };
            if never_holds(when, &context) {
                let text = raw[i].when.as_deref().unwrap_or_default();
                let place =
                    crate::text::yaml::locate_text(ctx.source, text, at.0.saturating_sub(3))
                        .unwrap_or(at);
                warn(
                    place,
                    WarningId::NeverHolds,
                    format!("the condition `{text}` can never hold: the signal is never sent"),
                );
            }
        }
    }
}

/// Where each team's entry starts: its `colour:` key, in file order.
fn team_places(ctx: &Ctx, count: usize) -> Vec<(usize, usize)> {
    let mut places = Vec::new();
    let mut from = ctx.key("teams", 1).0;
    for _ in 0..count {
        let found = ["colour", "color"]
            .into_iter()
            .filter_map(|k| crate::text::yaml::locate_key(ctx.source, k, from))
            .min()
            .unwrap_or((from, 1));
        from = found.0 + 1;
        places.push(found);
    }
    places
}

/// One team's entry: its colour, and each robot's program, placement and facing. Returns
/// where each robot's placement is written.
fn read_team(
    ctx: &Ctx,
    t: usize,
    team: &TeamFile,
    colour_at: (usize, usize),
    board: &Board,
    rules: &Rules,
) -> Result<Located<TeamSetup>, Diagnostic> {
    let colour = TeamColour::parse(&team.colour).ok_or_else(|| {
        ctx.err(
            colour_at,
            format!(
                "teams[{t}]: unknown team colour `{}`: expected one of {}",
                team.colour,
                TeamColour::names()
            ),
        )
    })?;
    // Each robot's fields are searched from the end of the previous robot's.
    let mut cursor = colour_at.0;
    let mut robots = Vec::new();
    let mut places = Vec::new();
    for (i, robot) in team.robots.iter().enumerate() {
        let from = cursor;
        let here = |key: &str| ctx.key(key, from);
        let what = format!("teams[{t}].robots[{i}] ({colour}.{})", i + 1);
        let (program, origin, source) = read_program(ctx, robot, &what, from, rules)?;
        let at = match robot.at {
            None => None,
            Some([col, row]) => Some(
                cell_at(board, col, row)
                    .map_err(|m| ctx.err(here("at"), format!("{what}: {m}")))?,
            ),
        };
        let facing = match robot.facing {
            None => None,
            Some(n) => Some(Direction::from_number(n).ok_or_else(|| {
                ctx.err(
                    here("facing"),
                    format!("{what}: facing {n}: directions are numbered 1 to 6"),
                )
            })?),
        };
        places.push(if robot.at.is_some() {
            here("at")
        } else {
            here("robots")
        });
        cursor = ["program", "code", "at", "facing"]
            .into_iter()
            .filter_map(|k| crate::text::yaml::locate_key(ctx.source, k, from))
            .map(|p| p.0)
            .min()
            .map_or(cursor, |line| line + 1);
        robots.push(RobotSetup {
            program: Arc::new(program),
            origin,
            source,
            at,
            facing,
        });
    }
    Ok((TeamSetup { colour, robots }, places))
}

/// A robot's program, from `program:` (a file or a shipped name) or `code:` (its text),
/// where it came from, and its text.
fn read_program(
    ctx: &Ctx,
    robot: &RobotFile,
    what: &str,
    from: usize,
    rules: &Rules,
) -> Result<(Program, String, Arc<str>), Diagnostic> {
    match (&robot.program, &robot.code) {
        (Some(name), None) => {
            let file = program_source(name, &ctx.named)
                .map_err(|m| ctx.err(ctx.key("program", from), format!("{what}: {m}")))?;
            let program = crate::battle::lang::parse_program_in(
                &file.shown,
                &file.text,
                rules.program_steps,
                rules.keywords,
            )
            .map_err(|d| private(d, file.outside))?;
            for w in program_warnings(&file.shown, &file.text, &program) {
                ctx.warnings.borrow_mut().push(private(w, file.outside));
            }
            Ok((program, name.clone(), file.text.into()))
        }
        (None, Some(code)) => {
            let code_line = ctx.key("code", from).0;
            let program = crate::battle::lang::parse_program_in(
                ctx.file,
                code,
                rules.program_steps,
                rules.keywords,
            )
            .map_err(|d| inline_diagnostic(ctx.file, ctx.source, (code_line, code), d))?;
            for w in program_warnings(ctx.file, code, &program) {
                let w = inline_diagnostic(ctx.file, ctx.source, (code_line, code), w);
                ctx.warnings.borrow_mut().push(w);
            }
            Ok((program, "inline".to_string(), code.as_str().into()))
        }
        _ => Err(ctx.err(
            ctx.key("robots", from),
            format!(
                "{what}: give either `program:` (a file or a shipped name) or `code:` (the program text)"
            ),
        )),
    }
}

/// The warnings about a program (docs/LANGUAGE.md), located in its text.
pub fn program_warnings(file: &str, source: &str, program: &Program) -> Vec<Diagnostic> {
    crate::battle::lang::lint::lint_program(program, source)
        .into_iter()
        .map(|w| {
            Diagnostic::warning(
                file,
                source,
                (w.span.start, w.span.end),
                w.id.code(),
                w.message,
            )
        })
        .collect()
}

/// Re-anchors a diagnostic from inline `code:` text onto the match file's lines.
fn inline_diagnostic(
    file: &str,
    source: &str,
    (code_line, code): (usize, &str),
    d: Diagnostic,
) -> Diagnostic {
    let (severity, id) = (d.severity, d.id);
    let mut anchored = anchor(file, source, (code_line, code), d);
    anchored.severity = severity;
    anchored.id = id;
    anchored
}

fn anchor(file: &str, source: &str, (code_line, code): (usize, &str), d: Diagnostic) -> Diagnostic {
    let line = code_line + d.line;
    let indent = source
        .lines()
        .nth(line - 1)
        .map_or(0, |l| l.len() - l.trim_start().len());
    let block = source
        .lines()
        .nth(code_line - 1)
        .is_some_and(|l| l.trim_end().ends_with('|') || l.trim_end().ends_with('>'));
    if block {
        return Diagnostic::at(file, source, line, indent + d.col, d.message);
    }
    // `code: ""` or `code: "1: T"` on one line: point into the line where the text sits.
    let key = crate::text::yaml::locate_key(source, "code", code_line).unwrap_or((code_line, 1));
    let on_the_line = if code.trim().is_empty() {
        Some(key)
    } else if code.contains(['\n', '\r']) {
        None
    } else {
        crate::text::yaml::locate_text(source, code, code_line)
            .filter(|&(l, _)| l == code_line)
            .map(|(l, c)| (l, c + d.col - 1))
    };
    if let Some((l, c)) = on_the_line {
        Diagnostic::at(file, source, l, c, d.message)
    } else {
        let (l, c) = key;
        Diagnostic::at(
            file,
            source,
            l,
            c,
            format!("in `code`, line {} column {}: {}", d.line, d.col, d.message),
        )
    }
}

/// The cell at `[col, row]`, if it is on the board.
fn cell_at(board: &Board, col: i64, row: i64) -> Result<CellId, String> {
    i32::try_from(col)
        .ok()
        .zip(i32::try_from(row).ok())
        .and_then(|(c, r)| board.cell_at_offset(c, r))
        .ok_or_else(|| {
            format!(
                "at [{col}, {row}] is off the board ({} columns × {} rows, from [0, 0])",
                board.width, board.height
            )
        })
}

/// The signal plans (R-A15), with where each is written. Whether they keep the rules is
/// for [`MatchSetup::validate`].
fn read_signals(
    ctx: &Ctx,
    raw: &[SignalFile],
    teams: &[TeamSetup],
    rules: &Rules,
) -> Result<Located<Vec<SignalPlan>>, Diagnostic> {
    let mut plans = Vec::new();
    let mut places = Vec::new();
    let mut from = ctx.key("signals", 1).0;
    for (i, s) in raw.iter().enumerate() {
        let at = crate::text::yaml::locate_key(ctx.source, "robot", from).unwrap_or((from, 1));
        from = at.0 + 1;
        let err = |msg: String| ctx.err(at, format!("signals[{i}]: {msg}"));
        let robot = parse_robot_ref(&s.robot, teams).map_err(|e| match e {
            RobotRefError::Name(RobotNameError::Form(_)) => err(e.to_string()),
            _ => err(format!("robot `{}`: {e}", s.robot)),
        })?;
        // Past 255 it is no step of any program; below, the domain says which steps are.
        let step = u8::try_from(s.step).map_err(|_| {
            err(format!(
                "step {} is not a step number (1 to {})",
                s.step, rules.program_steps
            ))
        })?;
        plans.push(match (s.round, &s.when) {
            (Some(round), None) => SignalPlan::Scheduled { round, robot, step },
            (None, Some(text)) => {
                let when = crate::battle::lang::parse_condition_in(ctx.file, text, rules.keywords)
                    .map_err(|d| {
                        // Point into the condition where it sits in the file, when it is on one line.
                        let place = crate::text::yaml::locate_text(
                            ctx.source,
                            text,
                            at.0.saturating_sub(3),
                        )
                        .map_or(at, |(l, c)| (l, c + d.col - 1));
                        ctx.err(place, format!("signals[{i}].when: {}", d.message))
                    })?;
                SignalPlan::Conditional {
                    when,
                    text: text.clone(),
                    robot,
                    step,
                }
            }
            _ => {
                return Err(err(
                    "give either `round:` (a scheduled signal) or `when:` (a conditional one)"
                        .into(),
                ));
            }
        });
        places.push(at);
    }
    Ok((plans, places))
}

/// Why a robot named in a match file is not one of its robots.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RobotRefError {
    #[error("{0}")]
    Name(#[from] RobotNameError),
    #[error("no {0} team in this match")]
    NoTeam(TeamColour),
    #[error("the {colour} team has robots 1 to {count}")]
    NoRobot { colour: TeamColour, count: usize },
}

/// `green.1` → team index and robot number.
pub fn parse_robot_ref(text: &str, teams: &[TeamSetup]) -> Result<RobotRef, RobotRefError> {
    let name = RobotName::parse(text)?;
    let team = teams
        .iter()
        .position(|t| t.colour == name.team)
        .ok_or(RobotRefError::NoTeam(name.team))?;
    let count = teams[team].robots.len();
    if usize::from(name.number) > count {
        return Err(RobotRefError::NoRobot {
            colour: name.team,
            count,
        });
    }
    Ok(RobotRef {
        team,
        number: name.number,
    })
}

/// Programs parsed on their own are checked against the default length. A leading byte
/// order mark is ignored.
pub fn parse_program_file(file: &str, source: &str) -> Result<Program, Diagnostic> {
    parse_program_file_in(file, source, Keywords::Plain)
}

/// A program file on its own, in the language `keywords` names, at that language's default
/// length (15 steps, 50 with the TI-57 keywords: RULES A.11, A.12).
pub fn parse_program_file_in(
    file: &str,
    source: &str,
    keywords: Keywords,
) -> Result<Program, Diagnostic> {
    let source = crate::text::strip_bom(source);
    crate::battle::lang::parse_program_in(file, source, keywords.default_steps(), keywords)
}
