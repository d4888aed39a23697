//! `robots hill DIR [init | add PROGRAM]` (docs/TOURNAMENTS.md, "The hill"): the hill's files.
//! A hill is a folder: `hill.yaml` (the settings), `programs/NAME.robot` (the programs on the
//! hill, copied in), `results.jsonl` (a line per match played between them, as a shard
//! writes it), and `board.yaml` when the board is not a shipped one. Everything read from it
//! is checked (a hand-edited hill is reported by file and line, never trusted). `init` and
//! `add` hold the folder's lock from their first read to their last write, and write every
//! file whole to a temporary file in DIR, then rename it (`hill_store.rs`). Which games are
//! missing and who is pushed off: `robots_games::battle::compare::tournament::hill`.

use crate::cli::args::flags::{HillArgs, HillCommand, HillInit, TableFormat};
use crate::cli::compare::hill_store::{Hold, Undo, lock, plain_file, shown, sweep, there};
use crate::cli::compare::tournament::{entrant, play, show};
use crate::cli::io::files::read_input;
use crate::cli::io::output::Failure;
use crate::cli::replay::Lines;
use clap::{Args, FromArgMatches};
use robots_games::battle::board::Board;
use robots_games::battle::compare::tournament::hill::{crown, is_safe_name, missing, reindex};
use robots_games::battle::compare::tournament::hill_file::{HillSettings, OWN_BOARD, parse_hill};
use robots_games::battle::compare::tournament::parts::{
    Field, MAX_LINE_BYTES, PART_BUDGET, Results, match_line,
};
use robots_games::battle::compare::tournament::{
    Config, Entrant, GameResult, MAX_ENTRANTS, standings,
};
use robots_games::battle::engine::{Rules, Scenario};
use robots_games::battle::lang::Keywords;
use robots_games::battle::{files::board_file, files::match_file, files::shipped};
use robots_games::text::escape;
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

const SETTINGS: &str = "hill.yaml";
const PROGRAMS: &str = "programs";
const RESULTS: &str = "results.jsonl";
const BOARD: &str = OWN_BOARD;

/// The settings of `robots hill DIR init` (and of a hill an `add` creates).
fn settings_of(init: &HillInit, board: String) -> HillSettings {
    HillSettings {
        size: usize::from(init.size),
        seeds: [*init.seeds.0.start(), *init.seeds.0.end()],
        board,
        scenario: init.scenario,
        robots: init.robots,
        rounds: init.rounds,
        keywords: init.keywords.language(),
    }
}

/// The defaults of `robots hill DIR init`.
fn defaults() -> Result<HillSettings, Failure> {
    let matches = HillInit::augment_args(clap::Command::new("init"))
        .try_get_matches_from(["init"])
        .map_err(|e| e.to_string())?;
    let init = HillInit::from_arg_matches(&matches).map_err(|e| e.to_string())?;
    Ok(settings_of(&init, init.board.clone()))
}

/// A hill as read from its folder.
struct Hill {
    settings: HillSettings,
    config: Config,
    /// In the order of their files' names (as `robots tournament DIR/programs` orders them).
    members: Vec<Entrant>,
    results: Vec<GameResult>,
}

impl Hill {
    fn names(&self) -> Vec<String> {
        self.members.iter().map(|e| e.name.clone()).collect()
    }
}

/// `hill.yaml`, checked; `None` when the folder holds no hill.
fn read_settings(dir: &Path) -> Result<Option<HillSettings>, Failure> {
    let path = dir.join(SETTINGS);
    if !plain_file(&path)? {
        return Ok(None);
    }
    let text = read_input(&path)?;
    Ok(Some(parse_hill(&path.display().to_string(), &text)?))
}

/// The hill's board: a shipped one, or its own `board.yaml`.
fn board(dir: &Path, settings: &HillSettings) -> Result<Board, Failure> {
    if let Some(text) = shipped::board(&settings.board) {
        return Ok(board_file::parse_board(
            &format!("boards/{}.yaml", settings.board),
            text,
        )?);
    }
    let path = dir.join(BOARD);
    if !plain_file(&path)? {
        return Err(Failure::Bad(format!(
            "{}: error: the hill's board is missing",
            shown(&path)
        )));
    }
    let text = read_input(&path)?;
    Ok(board_file::parse_board(&path.display().to_string(), &text)?)
}

fn config(board: Board, settings: &HillSettings) -> Result<Config, Failure> {
    Ok(Config {
        board: Arc::new(board),
        scenario: Scenario::from_number(u32::from(settings.scenario))
            .ok_or_else(|| Failure::Bad("the scenario is 1, 2 or 3".into()))?,
        rules: Rules {
            rounds: settings.rounds,
            ..Rules::with_keywords(settings.keywords)
        },
        robots: usize::from(settings.robots),
        seeds: settings.seeds[0]..=settings.seeds[1],
    })
}

/// The order of the programs on a hill: by their files' names.
fn file_order(a: &Entrant, b: &Entrant) -> std::cmp::Ordering {
    format!("{}.robot", a.name).cmp(&format!("{}.robot", b.name))
}

/// The programs in `programs/`, each a plain `NAME.robot` file with a safe NAME that parses.
fn members(dir: &Path, keywords: Keywords) -> Result<Vec<Entrant>, Failure> {
    let folder = dir.join(PROGRAMS);
    match std::fs::symlink_metadata(&folder) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Ok(m) if m.file_type().is_dir() => {}
        _ => {
            return Err(Failure::Bad(format!(
                "{}: error: not a folder (a link or a file): a hill's programs are its own",
                shown(&folder)
            )));
        }
    }
    let listing = std::fs::read_dir(&folder)
        .map_err(|e| format!("{}: error: cannot list the folder: {e}", shown(&folder)))?;
    let mut list = Vec::new();
    for item in listing {
        let item =
            item.map_err(|e| format!("{}: error: cannot list the folder: {e}", shown(&folder)))?;
        let path = item.path();
        let name = item
            .file_name()
            .to_str()
            .and_then(|n| n.strip_suffix(".robot"))
            .filter(|n| is_safe_name(n))
            .map(str::to_string)
            .ok_or_else(|| {
                format!(
                    "{}: error: a hill's programs/ holds only NAME.robot files (NAME: 1 to 64 ASCII letters, digits, `_`, `-`)",
                    shown(&path)
                )
            })?;
        if list.len() == MAX_ENTRANTS {
            return Err(Failure::Bad(format!(
                "{}: error: more than {MAX_ENTRANTS} programs",
                shown(&folder)
            )));
        }
        plain_file(&path)?;
        let text = read_input(&path)?;
        let program =
            match_file::parse_program_file_in(&path.display().to_string(), &text, keywords)?;
        list.push(Entrant::single(name, program, text.into()));
    }
    list.sort_by(file_order);
    Ok(list)
}

/// `results.jsonl`, every line checked: both programs on the hill, the seed index in range,
/// the seed the match is played with, no match twice. A missing file is no results.
fn results(dir: &Path, field: &Field) -> Result<Vec<GameResult>, Failure> {
    let path = dir.join(RESULTS);
    if !plain_file(&path)? {
        return Ok(Vec::new());
    }
    let mut start = Vec::new();
    std::fs::File::open(&path)
        .and_then(|f| f.take(2).read_to_end(&mut start))
        .map_err(|e| format!("{}: error: cannot read it: {e}", shown(&path)))?;
    if start == [0x1f, 0x8b] {
        return Err(Failure::Bad(format!(
            "{}:1: error: compressed: a hill's results are plain JSON lines",
            shown(&path)
        )));
    }
    let mut lines = Lines::open(&path, PART_BUDGET, "a hill's results")?;
    let shown = lines.shown().to_string();
    let mut results = Results::new(field);
    while let Some(text) = lines.next(MAX_LINE_BYTES)? {
        let number = lines.number();
        results
            .line(number, &text)
            .map_err(|m| Failure::Bad(format!("{shown}:{number}: error: {m}")))?;
    }
    Ok(results.finish())
}

/// The hill in `dir` with `settings`.
fn load(dir: &Path, settings: HillSettings) -> Result<Hill, Failure> {
    let config = config(board(dir, &settings)?, &settings)?;
    let members = members(dir, settings.keywords)?;
    let names: Vec<String> = members.iter().map(|e| e.name.clone()).collect();
    let field = Field::new(&names, &config, &settings.board);
    let results = results(dir, &field)?;
    Ok(Hill {
        settings,
        config,
        members,
        results,
    })
}

fn matches(n: usize) -> String {
    if n == 1 {
        "1 match".into()
    } else {
        format!("{n} matches")
    }
}

fn no_hill(dir: &Path) -> Failure {
    Failure::Bad(format!(
        "{}: error: no hill here ({SETTINGS} is missing): `robots hill DIR init`, or add a program",
        shown(dir)
    ))
}

/// `robots hill DIR`, `robots hill DIR init`, `robots hill DIR add PROGRAM`.
pub fn run(args: &HillArgs) -> Result<(), Failure> {
    match &args.command {
        None => {
            if !there(&args.dir) {
                return Err(no_hill(&args.dir));
            }
            // Read while no add writes, so that the programs and the results agree.
            let _reading = lock(&args.dir, Hold::Read)?;
            let settings = read_settings(&args.dir)?.ok_or_else(|| no_hill(&args.dir))?;
            let hill = load(&args.dir, settings)?;
            let names = hill.names();
            let field = Field::new(&names, &hill.config, &hill.settings.board);
            let table = standings(&names, &hill.results);
            out!("{}", show::standings(&table, &field, args.format));
            let left = missing(names.len(), &hill.config.seeds, &hill.results).len();
            if left > 0 {
                eprintln!(
                    "{} between the programs on the hill missing from {RESULTS}: the next `add` plays them",
                    matches(left)
                );
            }
            Ok(())
        }
        Some(HillCommand::Init(init)) => create(&args.dir, init),
        Some(HillCommand::Add {
            program,
            jobs,
            format,
        }) => add(&args.dir, program, *jobs, *format),
    }
}

/// Refuses a folder that holds any of a hill's files.
fn refuse_existing(dir: &Path) -> Result<(), Failure> {
    for name in [SETTINGS, PROGRAMS, RESULTS, BOARD] {
        if there(&dir.join(name)) {
            return Err(Failure::Bad(format!(
                "{}: error: there is a hill here already (or a part of one: {name})",
                shown(dir)
            )));
        }
    }
    Ok(())
}

/// `robots hill DIR init`.
fn create(dir: &Path, init: &HillInit) -> Result<(), Failure> {
    let (board, copy) = match shipped::board(&init.board) {
        Some(text) => (
            board_file::parse_board(&format!("boards/{}.yaml", init.board), text)?,
            None,
        ),
        None => {
            let path = PathBuf::from(&init.board);
            let text = read_input(&path)?;
            crate::cli::io::files::expect_kind(
                "hill",
                crate::cli::io::files::FileKind::HexBoard,
                &path,
                &text,
            )?;
            (board_file::parse_board(&init.board, &text)?, Some(text))
        }
    };
    let name = if copy.is_some() {
        BOARD.to_string()
    } else {
        init.board.clone()
    };
    let settings = settings_of(init, name);
    settings.check().map_err(|e| e.to_string())?;
    // The board must hold K robots a side: set up one match of two shipped programs.
    let config = config(board, &settings)?;
    let pair: Vec<Entrant> = shipped::PROGRAMS
        .iter()
        .take(2)
        .map(|(name, _)| entrant(name, Keywords::Plain))
        .collect::<Result<_, _>>()?;
    robots_games::battle::compare::tournament::check(&pair, &config)?;
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("{}: error: cannot create the folder: {e}", shown(dir)))?;
    let _writing = lock(dir, Hold::Write)?;
    refuse_existing(dir)?;
    sweep(dir)?;
    // hill.yaml makes the folder a hill: it is written last, and what came before it goes
    // again if it cannot be written.
    let mut undo = Undo::new(dir);
    undo.make_folder(PROGRAMS)?;
    if let Some(text) = copy {
        undo.write(Path::new(BOARD), text.as_bytes(), None)?;
    }
    undo.commit(Path::new(SETTINGS), settings.yaml().as_bytes())?;
    eprintln!("created the hill {}: {}", shown(dir), settings.summary());
    Ok(())
}

/// Says on standard error that the newcomer replaced the program `i` of its name, and how
/// many of that program's matches are dropped.
fn say_replaced(hill: &Hill, i: usize, name: &str) {
    let dropped = hill
        .results
        .iter()
        .filter(|r| r.game.a == i || r.game.b == i)
        .count();
    eprintln!(
        "{} was on the hill: replaced, its {} dropped",
        escape(name),
        matches(dropped)
    );
}

/// Says on standard error who left the hill, the newcomer among them or not.
fn say_pushed(pushed: &[String], newcomer: &str, of: usize) {
    for name in pushed {
        if name == newcomer {
            eprintln!("{} did not stay on the hill (last of {of})", escape(name));
        } else {
            eprintln!("pushed off the hill: {} (last of {of})", escape(name));
        }
    }
}

/// `robots hill DIR add PROGRAM`.
fn add(dir: &Path, spec: &str, jobs: Option<u16>, format: TableFormat) -> Result<(), Failure> {
    if !there(dir) {
        // A new hill: its folder is made once the newcomer is known to be one, and before
        // the lock, which is taken on the folder itself.
        newcomer(spec, defaults()?.keywords)?;
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("{}: error: cannot create the folder: {e}", shown(dir)))?;
    }
    // The whole add, from reading the hill to writing it, holds the lock: an add started
    // beside this one waits, then plays against the hill this one leaves.
    let _writing = lock(dir, Hold::Write)?;
    let (settings, created) = match read_settings(dir)? {
        Some(s) => (s, false),
        None => {
            refuse_existing(dir)?;
            (defaults()?, true)
        }
    };
    let newcomer = newcomer(spec, settings.keywords)?;
    let hill = load(dir, settings)?;
    let replaced = hill.members.iter().position(|e| e.name == newcomer.name);
    let (list, kept) = join(&hill, &newcomer);
    let names: Vec<String> = list.iter().map(|e| e.name.clone()).collect();
    let games = missing(list.len(), &hill.config.seeds, &kept);
    let played = if games.is_empty() {
        Vec::new()
    } else {
        play(&list, &hill.config, &games, jobs)?
    };
    if played.iter().any(Option::is_none) {
        return Err(Failure::NoAnswer(
            "stopped (Ctrl-C) before every match was played: the hill is unchanged".into(),
        ));
    }
    let mut all = kept;
    all.extend(played.into_iter().flatten());
    let crowned = crown(&names, &all, hill.settings.size);
    let stays: Vec<String> = crowned.kept.iter().map(|&i| names[i].clone()).collect();
    let pushed: Vec<String> = crowned.pushed.iter().map(|&i| names[i].clone()).collect();
    if created {
        eprintln!(
            "no hill in {}: created one with the defaults ({})",
            shown(dir),
            hill.settings.summary()
        );
    }
    if let Some(i) = replaced {
        say_replaced(&hill, i, &newcomer.name);
    }
    eprintln!(
        "{} played {} against {}",
        escape(&newcomer.name),
        matches(games.len()),
        robots_games::text::count(list.len() - 1, "program")
    );
    store(
        dir,
        &hill,
        &newcomer,
        &stays,
        &pushed,
        &crowned.results,
        created,
    )?;
    say_pushed(&pushed, &newcomer.name, list.len());
    let field = Field::new(&stays, &hill.config, &hill.settings.board);
    out!(
        "{}",
        show::standings(&standings(&stays, &crowned.results), &field, format)
    );
    Ok(())
}

/// The program `spec` read with `keywords`, if it may stand on a hill: one program, with a
/// safe name.
fn newcomer(spec: &str, keywords: Keywords) -> Result<Entrant, Failure> {
    let newcomer = entrant(spec, keywords)?;
    if newcomer.members.len() != 1 {
        return Err(Failure::Bad(format!(
            "{}: a hill holds programs (.robot files or shipped names), not teams",
            escape(spec)
        )));
    }
    if !is_safe_name(&newcomer.name) {
        return Err(Failure::Bad(format!(
            "{}: error: `{}` cannot name a program on a hill: 1 to 64 ASCII letters, digits, `_` and `-` (rename the file)",
            escape(spec),
            escape(&newcomer.name)
        )));
    }
    Ok(newcomer)
}

/// The programs with the newcomer in (in place of one of its name), and the results kept:
/// those between the others, numbered anew.
fn join(hill: &Hill, newcomer: &Entrant) -> (Vec<Entrant>, Vec<GameResult>) {
    let old_names = hill.names();
    let mut list: Vec<Entrant> = hill
        .members
        .iter()
        .filter(|e| e.name != newcomer.name)
        .cloned()
        .collect();
    list.push(newcomer.clone());
    list.sort_by(file_order);
    let index: HashMap<&str, usize> = list
        .iter()
        .enumerate()
        .map(|(i, e)| (e.name.as_str(), i))
        .collect();
    let kept = hill
        .results
        .iter()
        .filter_map(|r| {
            reindex(r, |i| {
                let name = old_names[i].as_str();
                (name != newcomer.name)
                    .then(|| index.get(name).copied())
                    .flatten()
            })
        })
        .collect();
    (list, kept)
}

/// Writes the hill after an addition: the settings of a new hill, the newcomer's text if it
/// stays, the results between the programs that stay; removes the files of those pushed off.
///
/// `results.jsonl` is the commit point. Before it, the files its lines need (the settings of
/// a new hill, the newcomer's program) are written, and put back as they were if any of them
/// or the results cannot be written: a failed add leaves the hill as it was. After it, the
/// programs pushed off are removed: a removal that fails leaves a program with no results,
/// whose matches the next add plays, never results naming a program that is not there, which
/// no later command could read.
fn store(
    dir: &Path,
    hill: &Hill,
    newcomer: &Entrant,
    stays: &[String],
    pushed: &[String],
    results: &[GameResult],
    created: bool,
) -> Result<(), Failure> {
    sweep(dir)?;
    let mut undo = Undo::new(dir);
    undo.make_folder(PROGRAMS)?;
    if created {
        undo.write(Path::new(SETTINGS), hill.settings.yaml().as_bytes(), None)?;
    }
    let file = |name: &str| Path::new(PROGRAMS).join(format!("{name}.robot"));
    if stays.contains(&newcomer.name) {
        let source = newcomer.members.first().map_or("", |m| &*m.source);
        let before = hill
            .members
            .iter()
            .find(|e| e.name == newcomer.name)
            .and_then(|e| e.members.first())
            .map(|m| Arc::clone(&m.source));
        undo.write(&file(&newcomer.name), source.as_bytes(), before)?;
    }
    let mut text = String::new();
    for r in results {
        text += &match_line(stays, r);
        text.push('\n');
    }
    undo.commit(Path::new(RESULTS), text.as_bytes())?;
    for name in pushed {
        let path = dir.join(file(name));
        match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(Failure::Bad(format!(
                    "{}: error: cannot remove it: {e}",
                    shown(&path)
                )));
            }
            _ => {}
        }
    }
    Ok(())
}
