//! The `robots` command line: the definition of the interface plus glue to the library.
//!
//! Exit codes: 0 success, 2 bad input (diagnostics on stderr).

use clap::{Parser, Subcommand};
use robots::diagnostic::{Diagnostic, text_from_bytes};
use robots::engine::{Event, Match, MatchSetup};
use robots::{board_file, match_file, render, shipped};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "robots", version, about = "Programmed robot battles on a hex board", long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a match and print the result (with no MATCH: the shipped default match).
    Run {
        /// A match file (YAML).
        #[arg(value_name = "MATCH")]
        file: Option<PathBuf>,
        /// The seed of the match's random generator (placements, first player).
        #[arg(long)]
        seed: Option<u64>,
        /// The round limit (R-A18).
        #[arg(long)]
        rounds: Option<u32>,
        /// Print every event as it happens.
        #[arg(long)]
        log: bool,
        /// Print the result as one JSON object.
        #[arg(long)]
        json: bool,
        /// Write the full event log as JSON to FILE.
        #[arg(long, value_name = "FILE")]
        replay: Option<PathBuf>,
    },
    /// Check programs (.robot), boards and match files (.yaml); exit 2 on any error.
    Check {
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },
    /// Draw a board (a file, or the name of a shipped board).
    Board {
        #[arg(value_name = "FILE")]
        file: String,
    },
    /// Step through a match forward and back (a terminal UI; reads commands when stdin is not
    /// a terminal, or from --script). With no MATCH: the default match of `run`.
    Debug {
        #[arg(value_name = "MATCH")]
        file: Option<PathBuf>,
        /// The seed of the match's random generator.
        #[arg(long)]
        seed: Option<u64>,
        /// Read commands from FILE and print a transcript (docs/DEBUGGER.md).
        #[arg(long, value_name = "FILE")]
        script: Option<PathBuf>,
    },
    /// Micro Robots: boards, the optimal solver, the analysis of a face, games.
    Micro {
        #[command(subcommand)]
        command: MicroCommand,
    },
    /// Ricochet Robots and Ricochets: boards, the optimal solver, solution checks, games.
    Ricochet {
        #[command(subcommand)]
        command: RicochetCommand,
    },
    /// Play a fixed workload of matches and report robot turns per second.
    Bench {
        /// How many matches to play.
        #[arg(long, default_value_t = 10_000)]
        matches: u32,
    },
}

/// Writes to standard output. When the reader has gone (`robots run --log | head`), there is
/// nobody left to tell anything: stop quietly instead of panicking like `println!` does.
fn emit(text: std::fmt::Arguments) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(text).and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("cannot write the output: {e}");
        std::process::exit(2);
    }
}

macro_rules! out {
    ($($arg:tt)*) => { emit(format_args!($($arg)*)) };
}

macro_rules! outln {
    () => { emit(format_args!("\n")) };
    ($($arg:tt)*) => { emit(format_args!("{}\n", format_args!($($arg)*))) };
}

#[derive(Subcommand)]
enum RicochetCommand {
    /// Draw a position, or a custom board file, with walls, targets and robots.
    Board {
        #[arg(value_name = "POSITION")]
        position: PathBuf,
    },
    /// Fewest moves to the target, and the moves (exit 1 if none within the limit).
    Solve {
        #[arg(value_name = "POSITION")]
        position: PathBuf,
        /// Print {"moves": n, "solution": [{"robot": "blue", "dir": "N"}, ...]}.
        #[arg(long)]
        json: bool,
        /// Give up beyond this many moves.
        #[arg(long, default_value_t = 40)]
        max_moves: u32,
    },
    /// Solve a fixed set of positions; print time and peak memory for each.
    Bench,
    /// Play a game: targets drawn, bids, demonstrations, tokens.
    Play {
        #[arg(long, default_value_t = 3)]
        players: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// A human player, who bids and shows moves at the terminal (repeat for more).
        #[arg(long = "human", value_name = "NAME")]
        humans: Vec<String>,
        /// The computer players' strength: 1 (sees 6 moves) to 4 (sees 20).
        #[arg(long, default_value_t = 3)]
        strength: u8,
        /// A custom board file; with robot bases it is a game of Ricochets (RULES B.2).
        #[arg(long)]
        board: Option<PathBuf>,
        /// Turn off R-B1 (the active robot need not turn).
        #[arg(long)]
        no_ricochet: bool,
    },
    /// Write a random position on a random original board.
    Random {
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// 4 robots, or 5 with the silver robot.
        #[arg(long, default_value_t = 4)]
        robots: usize,
    },
    /// Replay a proposed solution, such as "blue N, red W, blue E", and say if it is valid.
    Check {
        #[arg(value_name = "POSITION")]
        position: PathBuf,
        #[arg(value_name = "MOVES")]
        moves: String,
    },
}

#[derive(Subcommand)]
enum MicroCommand {
    /// Draw a board (a board file, a face file, or a shipped face: silver, copper).
    Board {
        #[arg(value_name = "BOARD")]
        board: String,
    },
    /// Fewest moves from one cell to another, and the path (exit 1 if there is none).
    Solve {
        #[arg(value_name = "BOARD")]
        board: String,
        /// The start cell, such as P1.
        #[arg(long)]
        from: String,
        /// The target cell, such as W2.
        #[arg(long)]
        to: String,
        /// A waypoint the robot must stop on.
        #[arg(long)]
        via: Option<String>,
        /// Print {"moves": n, "path": [...]}.
        #[arg(long)]
        json: bool,
    },
    /// Every arrangement of a face's tiles: optimal lengths, hardest pairs, worst cases.
    Analyse {
        #[arg(value_name = "FACE")]
        face: String,
        #[arg(long)]
        json: bool,
    },
    /// Play a game: dice, announcements, demonstrations, tokens.
    Play {
        /// How many players in all (humans included).
        #[arg(long, default_value_t = 3)]
        players: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// waypoint or no-token (default: the standard rules).
        #[arg(long)]
        variant: Option<String>,
        /// A human player, who answers at the terminal (repeat for more).
        #[arg(long = "human", value_name = "NAME")]
        humans: Vec<String>,
        /// The computer players' strength: 1 (slow, often wrong) to 3 (fast, rarely wrong).
        #[arg(long, default_value_t = 2)]
        strength: u8,
        /// The face to play on (silver, copper or a face file); its tiles are arranged at random.
        #[arg(long, default_value = "silver")]
        face: String,
    },
}

/// How a command failed: bad input (exit 2) or no answer to give (exit 1).
enum Failure {
    Bad(String),
    NoAnswer(String),
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure::Bad(message)
    }
}

mod cli;
use cli::memory;
use cli::micro::micro_face;
use robots::micro::{self as micro_robots, MicroFile};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Run {
            file,
            seed,
            rounds,
            log,
            json,
            replay,
        } => run(file, seed, rounds, log, json, replay),
        Command::Check { files } => check(&files),
        Command::Board { file } => board(&file),
        Command::Debug { file, seed, script } => debug(file, seed, script),
        Command::Bench { matches } => bench(matches),
        Command::Micro { command } => return finish(cli::micro::run(command)),
        Command::Ricochet { command } => return finish(cli::ricochet::run(command)),
    };
    finish(result.map_err(Failure::Bad))
}

fn finish(result: Result<(), Failure>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Bad(message)) => {
            eprintln!("{message}");
            ExitCode::from(2)
        }
        Err(Failure::NoAnswer(message)) => {
            eprintln!("{message}");
            ExitCode::from(1)
        }
    }
}

fn read_bytes(path: &Path) -> std::io::Result<Vec<u8>> {
    std::fs::read(path)
}

fn read_text(path: &Path) -> Result<String, String> {
    let shown = path.display().to_string();
    let bytes =
        std::fs::read(path).map_err(|e| format!("{shown}: error: cannot read the file: {e}"))?;
    text_from_bytes(&shown, bytes).map_err(|d| d.to_string())
}

fn load_match(file: Option<&Path>) -> Result<MatchSetup, String> {
    let (name, text) = match file {
        Some(path) => (path.display().to_string(), read_text(path)?),
        None => (
            shipped::DEFAULT_MATCH.0.to_string(),
            shipped::DEFAULT_MATCH.1.to_string(),
        ),
    };
    match_file::parse_match(&name, &text, &read_bytes).map_err(|d| d.to_string())
}

fn run(
    file: Option<PathBuf>,
    seed: Option<u64>,
    rounds: Option<u32>,
    log: bool,
    json: bool,
    replay: Option<PathBuf>,
) -> Result<(), String> {
    let mut setup = load_match(file.as_deref())?;
    if let Some(seed) = seed {
        setup.seed = seed;
    }
    if let Some(rounds) = rounds {
        if rounds == 0 {
            return Err("--rounds: a match has at least 1 round".into());
        }
        setup.rules.rounds = rounds;
    }
    let mut game = Match::new(&setup)?;
    let start = render::state(&game);
    let mut events: Vec<Event> = Vec::new();
    let first = game.teams()[game.first_team()].colour;
    if log && !json {
        outln!(
            "{} on {} (scenario {}, seed {}); {first} plays first\n{start}",
            setup.name,
            game.board().name,
            game.scenario().number(),
            game.seed()
        );
    }
    game.run(|e| {
        if log && !json {
            if matches!(e, Event::Turn { .. }) {
                outln!("{e}");
            } else {
                outln!("  {e}");
            }
        }
        if replay.is_some() {
            events.push(e.clone());
        }
    });
    let outcome = game.outcome().cloned().expect("run ends with an outcome");
    if let Some(path) = &replay {
        let doc = serde_json::json!({
            "match": setup.name,
            "board": game.board().name,
            "scenario": game.scenario().number(),
            "seed": game.seed(),
            "first": first,
            "events": events,
        });
        let text = serde_json::to_string_pretty(&doc)
            .map_err(|e| format!("cannot write the replay: {e}"))?;
        std::fs::write(path, text + "\n")
            .map_err(|e| format!("{}: error: cannot write the replay: {e}", path.display()))?;
    }
    let survivors = game.survivors();
    if json {
        let map: serde_json::Map<String, serde_json::Value> = survivors
            .iter()
            .map(|(colour, numbers)| (colour.to_string(), serde_json::json!(numbers)))
            .collect();
        let doc = serde_json::json!({
            "winner": outcome.winner,
            "reason": outcome.reason.to_string(),
            "rounds": outcome.rounds,
            "survivors": map,
            "seed": game.seed(),
        });
        outln!("{doc}");
        return Ok(());
    }
    out!("{}", render::state(&game));
    let result = match outcome.winner {
        Some(w) => format!(
            "{w} wins ({}) after {} rounds",
            outcome.reason, outcome.rounds
        ),
        None => format!("draw ({}) after {} rounds", outcome.reason, outcome.rounds),
    };
    outln!("\n{result}");
    for (colour, numbers) in survivors {
        let left = if numbers.is_empty() {
            "none".to_string()
        } else {
            numbers
                .iter()
                .map(|n| format!("{colour}.{n}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        outln!("  {colour} robots left: {left}");
    }
    Ok(())
}

/// What a file is, from its extension and (for YAML) its keys.
fn check_one(path: &Path) -> Result<String, String> {
    let text = read_text(path)?;
    let shown = path.display().to_string();
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    match ext {
        "robot" => {
            let p = match_file::parse_program_file(&shown, &text).map_err(|d| d.to_string())?;
            Ok(format!(
                "{shown}: ok (program{}, {} steps)",
                p.name
                    .as_ref()
                    .map(|n| format!(" `{n}`"))
                    .unwrap_or_default(),
                p.len()
            ))
        }
        "yaml" | "yml" => {
            let keys = robots::yaml::top_level_keys(&text);
            if keys.iter().any(|k| k == "map") {
                let b = board_file::parse_board(&shown, &text).map_err(|d| d.to_string())?;
                Ok(format!(
                    "{shown}: ok (board `{}`, {} x {} hexes)",
                    b.name, b.width, b.height
                ))
            } else if keys.iter().any(|k| {
                k == "tiles" || k == "rows" || (k == "face" && !keys.iter().any(|k| k == "teams"))
            }) {
                let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
                let read_face = |face: &str| match shipped::micro_face(face) {
                    Some(_) => micro_face(face),
                    None => micro_face(&base.join(face).display().to_string()),
                };
                match micro_robots::board::parse(&shown, &text, &read_face)
                    .map_err(|d| d.to_string())?
                {
                    MicroFile::Face(f) => Ok(format!(
                        "{shown}: ok (Micro Robots face `{}`, 4 tiles)",
                        f.name
                    )),
                    MicroFile::Board(b) => {
                        Ok(format!("{shown}: ok (Micro Robots board `{}`)", b.name))
                    }
                }
            } else if keys.iter().any(|k| k == "1A") {
                let n = robots::ricochet::board::check_quadrants(&shown, &text)
                    .map_err(|d| d.to_string())?;
                Ok(format!("{shown}: ok (Ricochet quarter boards, {n})"))
            } else if keys.iter().any(|k| k == "size") {
                let b = robots::ricochet::board::parse_custom(&shown, &text)
                    .map_err(|d| d.to_string())?;
                Ok(format!(
                    "{shown}: ok (Ricochet board `{}`, {} x {})",
                    b.name, b.width, b.height
                ))
            } else if keys.iter().any(|k| k == "target") && keys.iter().any(|k| k == "robots") {
                let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
                let read = |name: &str| read_text(&base.join(name));
                let p = robots::ricochet::position::parse(&shown, &text, &read)
                    .map_err(|d| d.to_string())?;
                Ok(format!(
                    "{shown}: ok (Ricochet position, {} robots)",
                    p.robots.len()
                ))
            } else if keys.iter().any(|k| k == "teams") {
                let m = match_file::parse_match(&shown, &text, &read_bytes)
                    .map_err(|d| d.to_string())?;
                Ok(format!(
                    "{shown}: ok (match `{}`, {} teams)",
                    m.name,
                    m.teams.len()
                ))
            } else {
                // Let the reader say what is wrong with it (it may not be YAML at all).
                robots::yaml::from_str::<serde_yaml_probe::Any>(&shown, &text)
                    .map_err(|d| d.to_string())?;
                Err(Diagnostic::at(
                    &shown,
                    &text,
                    1,
                    1,
                    "not a file robots knows: a hex board has `map:`, a match `teams:`, a Ricochet position `robots:` and `target:`, a Ricochet board `size:`, Ricochet quarter boards `1A:` and the like, a Micro Robots face `tiles:`, a Micro Robots board `rows:` or `face:`",
                )
                .to_string())
            }
        }
        _ => Err(format!(
            "{shown}: error: unknown kind of file: expected .robot (a program) or .yaml (a board, a match, a Ricochet position or a Micro Robots file)"
        )),
    }
}

mod serde_yaml_probe {
    /// Accepts any YAML document: used to surface syntax errors with their position.
    #[derive(serde::Deserialize)]
    pub struct Any(#[allow(dead_code)] serde::de::IgnoredAny);
}

fn check(files: &[PathBuf]) -> Result<(), String> {
    let mut failed = 0;
    for path in files {
        match check_one(path) {
            Ok(line) => outln!("{line}"),
            Err(message) => {
                eprintln!("{message}");
                failed += 1;
            }
        }
    }
    match failed {
        0 => Ok(()),
        n => Err(format!("{n} of {} files have errors", files.len())),
    }
}

fn board(file: &str) -> Result<(), String> {
    let board = match shipped::board(file) {
        Some(text) => board_file::parse_board(&format!("boards/{file}.yaml"), text),
        None => {
            let path = Path::new(file);
            let text = read_text(path)?;
            board_file::parse_board(file, &text)
        }
    }
    .map_err(|d| d.to_string())?;
    out!("{}", render::board(&board));
    Ok(())
}

fn debug(file: Option<PathBuf>, seed: Option<u64>, script: Option<PathBuf>) -> Result<(), String> {
    use std::io::{BufRead, IsTerminal};
    let loader: robots::debug::Loader = Box::new(move || {
        let mut setup = load_match(file.as_deref())?;
        if let Some(seed) = seed {
            setup.seed = seed;
        }
        Ok(setup)
    });
    let mut session = robots::debug::Session::new(loader)?;
    let lines: Box<dyn Iterator<Item = std::io::Result<String>>> = match script {
        Some(path) => Box::new(
            read_text(&path)?
                .lines()
                .map(|l| Ok(l.to_string()))
                .collect::<Vec<_>>()
                .into_iter(),
        ),
        None if !std::io::stdin().is_terminal() => Box::new(std::io::stdin().lock().lines()),
        None => return robots::tui::run(session).map_err(|e| format!("the terminal failed: {e}")),
    };
    // Script mode: each command echoed, then its answer, as the commands arrive.
    out!("{}", session.position());
    for line in lines {
        let line = line.map_err(|e| format!("cannot read the commands: {e}"))?;
        if let Some(reply) = session.script_line(&line) {
            out!("{}", reply.text);
            if reply.quit {
                break;
            }
        }
    }
    Ok(())
}

fn bench(matches: u32) -> Result<(), String> {
    let workload = robots::bench::workload().map_err(|d| d.to_string())?;
    let started = std::time::Instant::now();
    let report = robots::bench::play(&workload, matches);
    let seconds = started.elapsed().as_secs_f64();
    outln!("matches: {}", report.matches);
    outln!("decided: {}, drawn: {}", report.decided, report.drawn);
    outln!("robot turns: {}", report.turns);
    outln!("seconds: {seconds:.3}");
    // The debugger: going back in a long match (a checkpoint and a short replay).
    let mut timeline = robots::bench::long_timeline().map_err(|d| d.to_string())?;
    let end = timeline.turn();
    let rounds = timeline.current().clock().round;
    let started = std::time::Instant::now();
    timeline.go_to(end - 1000);
    let one_jump = started.elapsed().as_secs_f64() * 1e3;
    timeline.go_to(end);
    let started = std::time::Instant::now();
    for _ in 0..1000 {
        timeline.go_to(timeline.turn() - 1);
    }
    let single_steps = started.elapsed().as_secs_f64() * 1e3;
    outln!(
        "debugger, {rounds} rounds, {end} robot turns: back 1000 turns at once: {one_jump:.3} ms"
    );
    outln!("debugger: 1000 times back 1 turn: {single_steps:.3} ms");
    outln!(
        "robot-turns/s: {:.0}",
        report.turns as f64 / seconds.max(1e-9)
    );
    Ok(())
}

/// Asks a question at the terminal; `None` when the input has ended.
fn ask(prompt: &str) -> Option<String> {
    use std::io::BufRead;
    out!("{prompt}");
    let mut line = String::new();
    match std::io::stdin().lock().read_line(&mut line) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(line.trim().to_string()),
    }
}

/// Asks for a number of moves, timing the answer: `(moves, seconds)`, or `None` when the
/// player passes (an empty line) or the input has ended.
fn ask_moves(prompt: &str) -> Option<(u32, f64)> {
    let started = std::time::Instant::now();
    loop {
        let answer = ask(prompt)?;
        if answer.is_empty() {
            return None;
        }
        match answer.parse() {
            Ok(n) => return Some((n, started.elapsed().as_secs_f64())),
            Err(_) => outln!("a number of moves, please"),
        }
    }
}
