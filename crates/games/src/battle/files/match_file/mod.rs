//! Match files (docs/FORMATS.md): board, scenario, rules, seed, teams, signals. Turned into a
//! [`MatchSetup`] with errors that name the file, the line and the field.
//!
//! Files are read through a `read` callback, so the library does no I/O of its own.

use crate::battle::board::Board;
use crate::battle::board::CellId;
use crate::battle::engine::{MatchSetup, RobotSetup, Rules, Scenario, SetupError, TeamSetup};
use crate::battle::hex::Direction;
use crate::battle::lang::{Keywords, Program};
use crate::battle::terrain::TeamColour;
use crate::text::confine::{Confine, Fetched};
use crate::text::diagnostic::Diagnostic;
use std::path::Path;
use std::sync::Arc;

mod named;
mod raw;
mod signals;
pub use named::{Fetcher, Reader};
use named::{Named, load_board, private, program_source};
use raw::{Ctx, Located, MatchFile, Places, RobotFile, TeamFile};
pub use signals::{RobotRefError, parse_robot_ref};
use signals::{lint_signals, read_signals};

/// The longest match a file may ask for (`rules.rounds`): a file from a stranger should not
/// make `robots run` work for minutes. A longer match is the user's own request, on the
/// command line (`--rounds`).
pub const MAX_FILE_ROUNDS: u32 = 1000;

/// The default seed when neither the file nor the command line gives one.
pub const DEFAULT_SEED: u64 = 1;

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
    let (scenario, rules) = read_rules(&ctx, &raw, rounds, &places)?;
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

/// The scenario and the rules of the match: the file's, with `rounds` from the command line
/// in place of its `rules.rounds`.
fn read_rules(
    ctx: &Ctx,
    raw: &MatchFile,
    rounds: Option<u32>,
    places: &Places,
) -> Result<(Scenario, Rules), Diagnostic> {
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
    rules.validate().map_err(|e| ctx.locate(places, &e))?;
    if rounds.is_none() && rules.rounds > MAX_FILE_ROUNDS {
        return Err(ctx.err(
            ctx.key("rounds", 1),
            format!(
                "rounds: {} is more than a match file may ask ({MAX_FILE_ROUNDS}); a longer match is asked on the command line: `robots run FILE --rounds N`",
                rules.rounds
            ),
        ));
    }
    Ok((scenario, rules))
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

/// `robots check` on one program file: the line saying what it is (`FILE: ok (program `x`,
/// 12 steps)`) and its warnings, or its error.
pub fn check_program(
    file: &str,
    source: &str,
    keywords: Keywords,
) -> Result<(String, Vec<Diagnostic>), Diagnostic> {
    let program = parse_program_file_in(file, source, keywords)?;
    let warnings = program_warnings(file, crate::text::strip_bom(source), &program);
    let steps = crate::text::count(program.len(), "step");
    let name = program
        .name
        .as_ref()
        .map(|n| format!(" `{}`", crate::text::escape(n)))
        .unwrap_or_default();
    Ok((format!("{file}: ok (program{name}, {steps})"), warnings))
}
