//! Match files (docs/FORMATS.md): board, scenario, rules, seed, teams, signals. Turned into a
//! [`MatchSetup`] with errors that name the file, the line and the field.
//!
//! Files are read through a `read` callback, so the library does no I/O of its own.

use crate::battle::board::Board;
use crate::battle::engine::{
    MatchSetup, RobotRef, RobotSetup, Rules, Scenario, SignalPlan, TeamSetup,
};
use crate::battle::hex::Direction;
use crate::battle::lang::{MAX_PROGRAM_STEPS, Program};
use crate::battle::shipped;
use crate::battle::terrain::{TeamColour, Terrain};
use crate::text::diagnostic::Diagnostic;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::sync::Arc;

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

/// Reads files named by a match file (boards, programs).
pub type Reader<'a> = dyn Fn(&Path) -> std::io::Result<Vec<u8>> + 'a;

/// The default seed when neither the file nor the command line gives one.
pub const DEFAULT_SEED: u64 = 1;

/// Loads a match file. `file` is its path (for diagnostics and relative paths).
pub fn parse_match(file: &str, source: &str, read: &Reader) -> Result<MatchSetup, Diagnostic> {
    let raw: MatchFile = crate::text::yaml::from_str(file, source)?;
    let _ = &raw.description;
    let base = Path::new(file)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    // Semantic errors point at the key they are about, searching from the line of `after`.
    let at_key = |key: &str, after: usize| {
        crate::text::yaml::locate_key(source, key, after).unwrap_or((1, 1))
    };
    let err =
        |(line, col): (usize, usize), msg: String| Diagnostic::at(file, source, line, col, msg);

    let scenario = Scenario::from_number(raw.scenario).ok_or_else(|| {
        err(
            at_key("scenario", 1),
            format!(
                "scenario {} does not exist: expected 1, 2 or 3",
                raw.scenario
            ),
        )
    })?;
    let defaults = Rules::default();
    let rules = Rules {
        shapes_block: raw.rules.shapes_block.unwrap_or(defaults.shapes_block),
        program_steps: raw.rules.program_steps.unwrap_or(defaults.program_steps),
        rounds: raw.rules.rounds.unwrap_or(defaults.rounds),
    };
    if !(1..=MAX_PROGRAM_STEPS).contains(&rules.program_steps) {
        return Err(err(
            at_key("program_steps", 1),
            format!(
                "program_steps is {}: expected 1 to {MAX_PROGRAM_STEPS}",
                rules.program_steps
            ),
        ));
    }
    if rules.rounds == 0 {
        return Err(err(at_key("rounds", 1), "rounds must be at least 1".into()));
    }

    let board = load_board(&raw.board, &base, read).map_err(|msg| err(at_key("board", 1), msg))?;

    let teams_line = at_key("teams", 1).0;
    if raw.teams.is_empty() {
        return Err(err(
            at_key("teams", 1),
            "a match needs at least one team".into(),
        ));
    }
    // Where each team's entry starts: its `colour:` key, in file order.
    let mut team_lines = Vec::new();
    let mut from = teams_line;
    for _ in &raw.teams {
        let found = ["colour", "color"]
            .into_iter()
            .filter_map(|k| crate::text::yaml::locate_key(source, k, from))
            .min()
            .unwrap_or((from, 1));
        from = found.0 + 1;
        team_lines.push(found);
    }
    let mut teams: Vec<TeamSetup> = Vec::new();
    for (t, team) in raw.teams.iter().enumerate() {
        let colour_at = team_lines[t];
        let colour = TeamColour::parse(&team.colour).ok_or_else(|| {
            err(
                colour_at,
                format!(
                    "teams[{t}]: unknown team colour `{}`: expected one of {}",
                    team.colour,
                    TeamColour::names()
                ),
            )
        })?;
        if teams.iter().any(|x| x.colour == colour) {
            return Err(err(
                colour_at,
                format!("teams[{t}]: two teams are {colour}"),
            ));
        }
        if team.robots.is_empty() || team.robots.len() > 9 {
            return Err(err(
                colour_at,
                format!(
                    "teams[{t}]: a team has 1 to 9 robots, not {}",
                    team.robots.len()
                ),
            ));
        }
        if scenario != Scenario::Elimination && !board.has_camp(colour) {
            return Err(err(
                colour_at,
                format!(
                    "scenario {} needs a camp for every team: board `{}` has no {colour} camp",
                    scenario.number(),
                    board.name
                ),
            ));
        }
        if scenario == Scenario::ComputerStrike && board.computer_of(colour).is_none() {
            return Err(err(
                colour_at,
                format!(
                    "scenario 3 needs a central computer in every team's camp: board `{}` has none in the {colour} camp",
                    board.name
                ),
            ));
        }
        // Each robot's fields are searched from the end of the previous robot's.
        let mut cursor = colour_at.0;
        let mut robots = Vec::new();
        for (i, robot) in team.robots.iter().enumerate() {
            let from = cursor;
            let here = |key: &str| at_key(key, from);
            let what = format!("teams[{t}].robots[{i}] ({colour}.{})", i + 1);
            let (program, origin) = match (&robot.program, &robot.code) {
                (Some(name), None) => {
                    let (text, origin, shown) = program_source(name, &base, read)
                        .map_err(|m| err(here("program"), format!("{what}: {m}")))?;
                    (
                        crate::battle::lang::parse_program(&shown, &text, rules.program_steps)?,
                        origin,
                    )
                }
                (None, Some(code)) => {
                    let code_line = here("code").0;
                    let program =
                        crate::battle::lang::parse_program(file, code, rules.program_steps)
                            .map_err(|d| inline_diagnostic(file, source, code_line, d))?;
                    (program, "inline".to_string())
                }
                _ => {
                    return Err(err(
                        here("robots"),
                        format!(
                            "{what}: give either `program:` (a file or a shipped name) or `code:` (the program text)"
                        ),
                    ));
                }
            };
            let at = match robot.at {
                None => None,
                Some([col, row]) => Some(
                    check_placement(&board, col, row)
                        .map_err(|m| err(here("at"), format!("{what}: {m}")))?,
                ),
            };
            let facing = match robot.facing {
                None => None,
                Some(n) => Some(Direction::from_number(n).ok_or_else(|| {
                    err(
                        here("facing"),
                        format!("{what}: facing {n}: directions are numbered 1 to 6"),
                    )
                })?),
            };
            cursor = ["program", "code", "at", "facing"]
                .into_iter()
                .filter_map(|k| crate::text::yaml::locate_key(source, k, from))
                .map(|p| p.0)
                .min()
                .map_or(cursor, |line| line + 1);
            robots.push(RobotSetup {
                program: Arc::new(program),
                origin,
                at,
                facing,
            });
        }
        teams.push(TeamSetup { colour, robots });
    }

    let signals = parse_signals(file, source, &raw.signals, &teams, &rules)?;
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
    // Catch what only placement can tell (taken hexes, no free start point) now, while the
    // error can still name the file.
    crate::battle::engine::Match::new(&setup).map_err(|m| err(at_key("teams", 1), m))?;
    Ok(setup)
}

/// The text of a file named by the match file (relative to it), and the name its
/// diagnostics use. `kind` and `shipped` make the error say what could be named instead.
fn read_referenced(
    kind: &str,
    name: &str,
    shipped: &[&str],
    base: &Path,
    read: &Reader,
) -> Result<(String, String), String> {
    let path: PathBuf = base.join(name);
    let shown = path.display().to_string();
    let bytes = read(&path).map_err(|e| {
        format!(
            "cannot read {kind} `{shown}`: {e} (shipped {kind}s: {})",
            shipped.join(", ")
        )
    })?;
    let text =
        crate::text::diagnostic::text_from_bytes(&shown, bytes).map_err(|d| d.to_string())?;
    Ok((text, shown))
}

/// A shipped board by name (`classic`), or a board file relative to the match file.
fn load_board(name: &str, base: &Path, read: &Reader) -> Result<Board, String> {
    if let Some(text) = shipped::board(name) {
        return crate::battle::board_file::parse_board(&format!("boards/{name}.yaml"), text)
            .map_err(|d| d.to_string());
    }
    let (text, shown) =
        read_referenced("board", name, &shipped::BOARDS.map(|(n, _)| n), base, read)?;
    crate::battle::board_file::parse_board(&shown, &text)
        .map_err(|d| format!("in the board file:\n{d}"))
}

/// A program's text, where it came from, and the name its diagnostics use.
fn program_source(
    name: &str,
    base: &Path,
    read: &Reader,
) -> Result<(String, String, String), String> {
    if let Some(text) = shipped::program(name) {
        return Ok((
            text.to_string(),
            name.to_string(),
            format!("programs/{name}.robot"),
        ));
    }
    let (text, shown) = read_referenced(
        "program",
        name,
        &shipped::PROGRAMS.map(|(n, _)| n),
        base,
        read,
    )?;
    Ok((text, name.to_string(), shown))
}

/// Re-anchors a diagnostic from inline `code:` text onto the match file's lines.
fn inline_diagnostic(file: &str, source: &str, code_line: usize, d: Diagnostic) -> Diagnostic {
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
        Diagnostic::at(file, source, line, indent + d.col, d.message)
    } else {
        let (l, c) = (code_line, 1);
        Diagnostic::at(
            file,
            source,
            l,
            c,
            format!("in `code`, line {} column {}: {}", d.line, d.col, d.message),
        )
    }
}

fn check_placement(
    board: &Board,
    col: i64,
    row: i64,
) -> Result<crate::battle::board::CellId, String> {
    let cell = i32::try_from(col)
        .ok()
        .zip(i32::try_from(row).ok())
        .and_then(|(c, r)| board.cell_at_offset(c, r))
        .ok_or_else(|| {
            format!(
                "at [{col}, {row}] is off the board ({} columns × {} rows, from [0, 0])",
                board.width, board.height
            )
        })?;
    match board.cell(cell).terrain {
        Terrain::Plain | Terrain::Lightning => Ok(cell),
        Terrain::Lake => Err(format!("at [{col}, {row}] is a lake")),
        Terrain::Shape(..) => Err(format!("at [{col}, {row}] holds a shape")),
        Terrain::Computer(_) => Err(format!("at [{col}, {row}] holds a computer")),
    }
}

fn parse_signals(
    file: &str,
    source: &str,
    raw: &[SignalFile],
    teams: &[TeamSetup],
    rules: &Rules,
) -> Result<Vec<SignalPlan>, Diagnostic> {
    let mut plans = Vec::new();
    let mut from = crate::text::yaml::locate_key(source, "signals", 1).map_or(1, |p| p.0);
    for (i, s) in raw.iter().enumerate() {
        let at = crate::text::yaml::locate_key(source, "robot", from).unwrap_or((from, 1));
        from = at.0 + 1;
        let err =
            |msg: String| Diagnostic::at(file, source, at.0, at.1, format!("signals[{i}]: {msg}"));
        let robot = parse_robot_ref(&s.robot, teams).map_err(err)?;
        if s.step == 0 || s.step as usize > rules.program_steps {
            return Err(err(format!(
                "step {} is not a step number (1 to {})",
                s.step, rules.program_steps
            )));
        }
        let step = s.step as u8;
        plans.push(match (s.round, &s.when) {
            (Some(round), None) => {
                if plans.iter().any(|p| matches!(p, SignalPlan::Scheduled { round: r, robot: x, .. } if *r == round && x.team == robot.team)) {
                    return Err(err(format!("two signals for {} in round {round}: one per turn (R-A13)", teams[robot.team].colour)));
                }
                SignalPlan::Scheduled { round, robot, step }
            }
            (None, Some(text)) => {
                let when = crate::battle::lang::parse_condition(file, text).map_err(|d| {
                    // Point into the condition where it sits in the file, when it is on one line.
                    let place = crate::text::yaml::locate_text(source, text, at.0.saturating_sub(3))
                        .map(|(l, c)| (l, c + d.col - 1))
                        .unwrap_or(at);
                    Diagnostic::at(file, source, place.0, place.1, format!("signals[{i}].when: {}", d.message))
                })?;
                SignalPlan::Conditional { when, text: text.clone(), robot, step }
            }
            _ => return Err(err("give either `round:` (a scheduled signal) or `when:` (a conditional one)".into())),
        });
    }
    Ok(plans)
}

/// `green.1` → team index and robot number.
pub fn parse_robot_ref(text: &str, teams: &[TeamSetup]) -> Result<RobotRef, String> {
    let (colour, number) = text
        .split_once('.')
        .ok_or_else(|| format!("robot `{text}`: expected TEAM.NUMBER, such as green.1"))?;
    let colour = TeamColour::parse(colour)
        .ok_or_else(|| format!("robot `{text}`: unknown team colour `{colour}`"))?;
    let team = teams
        .iter()
        .position(|t| t.colour == colour)
        .ok_or_else(|| format!("robot `{text}`: no {colour} team in this match"))?;
    let number: u8 = number
        .parse()
        .map_err(|_| format!("robot `{text}`: `{number}` is not a robot number"))?;
    if number == 0 || usize::from(number) > teams[team].robots.len() {
        return Err(format!(
            "robot `{text}`: the {colour} team has robots 1 to {}",
            teams[team].robots.len()
        ));
    }
    Ok(RobotRef { team, number })
}

/// Programs parsed on their own are checked against the default length.
pub fn parse_program_file(file: &str, source: &str) -> Result<Program, Diagnostic> {
    crate::battle::lang::parse_program(file, source, crate::battle::lang::DEFAULT_PROGRAM_STEPS)
}
