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
    /// Draw a position (a position file) with walls, targets and robots.
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

/// Heap use, counted by the global allocator, so benchmarks can report peak memory per task.
mod memory {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::sync::atomic::{AtomicUsize, Ordering};

    static CURRENT: AtomicUsize = AtomicUsize::new(0);
    static PEAK: AtomicUsize = AtomicUsize::new(0);

    pub struct Counting;

    // SAFETY: every call is passed unchanged to the system allocator; the counters are only
    // bookkeeping beside it.
    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            // SAFETY: the caller's contract for `layout` is the system allocator's.
            let p = unsafe { System.alloc(layout) };
            if !p.is_null() {
                let now = CURRENT.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
                PEAK.fetch_max(now, Ordering::Relaxed);
            }
            p
        }

        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            // SAFETY: `ptr` came from `alloc` above with this `layout`.
            unsafe { System.dealloc(ptr, layout) };
            CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
        }
    }

    #[global_allocator]
    static GLOBAL: Counting = Counting;

    /// Starts a new peak from what is allocated now.
    pub fn reset_peak() {
        PEAK.store(CURRENT.load(Ordering::Relaxed), Ordering::Relaxed);
    }

    /// The most bytes allocated at once since the last reset.
    pub fn peak() -> usize {
        PEAK.load(Ordering::Relaxed)
    }
}

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
        Command::Micro { command } => return finish(micro(command)),
        Command::Ricochet { command } => return finish(ricochet(command)),
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
                    "neither a board (no `map:` key) nor a match (no `teams:` key)",
                )
                .to_string())
            }
        }
        _ => Err(format!(
            "{shown}: error: unknown kind of file: expected .robot (a program) or .yaml (a board or a match)"
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

// ---------------------------------------------------------------------------- Micro Robots

use robots::micro::{self as micro_robots, Board as MicroBoard, Cell, Face, MicroFile};

fn micro_face(name: &str) -> Result<Face, String> {
    let (shown, text) = match shipped::micro_face(name) {
        Some(text) => (format!("boards/micro/{name}.yaml"), text.to_string()),
        None => (name.to_string(), read_text(Path::new(name))?),
    };
    match micro_robots::board::parse(&shown, &text, &micro_face).map_err(|d| d.to_string())? {
        MicroFile::Face(face) => Ok(face),
        MicroFile::Board(_) => Err(format!(
            "{shown}: error: a board file, where a face (four tiles) was expected"
        )),
    }
}

/// A board file, or a face (shipped or a file) in its plain arrangement.
fn micro_board(name: &str) -> Result<MicroBoard, String> {
    let (shown, text) = match shipped::micro_face(name) {
        Some(text) => (format!("boards/micro/{name}.yaml"), text.to_string()),
        None => (name.to_string(), read_text(Path::new(name))?),
    };
    let base = Path::new(name)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let read_face = |face: &str| match shipped::micro_face(face) {
        Some(_) => micro_face(face),
        None => micro_face(&base.join(face).display().to_string()),
    };
    Ok(
        match micro_robots::board::parse(&shown, &text, &read_face).map_err(|d| d.to_string())? {
            MicroFile::Board(board) => board,
            MicroFile::Face(face) => MicroBoard::arrange(&face, micro_robots::Arrangement::PLAIN),
        },
    )
}

fn cell(text: &str, flag: &str) -> Result<Cell, String> {
    Cell::parse(text).ok_or_else(|| {
        format!(
            "--{flag} {text}: a cell is a colour letter (B Y G R P W) and a number 1-6, such as P1"
        )
    })
}

fn micro(command: MicroCommand) -> Result<(), Failure> {
    use std::io::IsTerminal;
    match command {
        MicroCommand::Board { board } => {
            let board = micro_board(&board)?;
            outln!("{}", board.name);
            out!(
                "{}",
                micro_robots::board::render(&board, std::io::stdout().is_terminal())
            );
        }
        MicroCommand::Solve {
            board,
            from,
            to,
            via,
            json,
        } => {
            let board = micro_board(&board)?;
            let (from, to) = (cell(&from, "from")?, cell(&to, "to")?);
            let via = via.map(|v| cell(&v, "via")).transpose()?;
            let Some(solution) = micro_robots::solve::solve(&board, from, to, via) else {
                let through = via.map(|v| format!(" through {v}")).unwrap_or_default();
                return Err(Failure::NoAnswer(format!(
                    "no way from {from} to {to}{through} on this board"
                )));
            };
            if json {
                outln!(
                    "{}",
                    serde_json::to_string(&solution).expect("a solution serialises")
                );
            } else {
                let path: Vec<String> = solution.path.iter().map(Cell::to_string).collect();
                outln!("{} moves: {}", solution.moves, path.join(" → "));
            }
        }
        MicroCommand::Analyse { face, json } => {
            let face = micro_face(&face)?;
            let started = std::time::Instant::now();
            let bar = indicatif::ProgressBar::with_draw_target(
                Some(1536),
                indicatif::ProgressDrawTarget::hidden(),
            );
            let mut shown = false;
            let analysis = micro_robots::analyse::analyse(&face, &mut |done, total| {
                // A bar only when the work takes more than a second.
                if !shown && started.elapsed().as_secs_f64() > 1.0 {
                    bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
                    shown = true;
                }
                bar.set_length(total as u64);
                bar.set_position(done as u64);
            });
            bar.finish_and_clear();
            if json {
                outln!(
                    "{}",
                    serde_json::to_string(&analysis).expect("an analysis serialises")
                );
            } else {
                out!("{}", micro_robots::analyse::report(&analysis));
                outln!("analysed in {:.3} s", started.elapsed().as_secs_f64());
            }
        }
        MicroCommand::Play {
            players,
            seed,
            variant,
            humans,
            strength,
            face,
        } => {
            use micro_robots::game::{Kind, Player, Variant};
            let variant = match variant.as_deref() {
                None | Some("standard") => Variant::Standard,
                Some("waypoint") => Variant::Waypoint,
                Some("no-token") => Variant::NoToken,
                Some(other) => {
                    return Err(Failure::Bad(format!(
                        "--variant {other}: expected waypoint or no-token"
                    )));
                }
            };
            if !(1..=3).contains(&strength) {
                return Err(Failure::Bad("--strength: 1 to 3".into()));
            }
            if !(2..=8).contains(&players) || humans.len() > players {
                return Err(Failure::Bad(format!(
                    "--players {players}: 2 to 8 players, at least as many as --human names"
                )));
            }
            let face = micro_face(&face)?;
            // The tiles are laid out at random, from the same seed.
            let arrangements = micro_robots::analyse::arrangements();
            let arrangement = arrangements[(seed % arrangements.len() as u64) as usize];
            let board = MicroBoard::arrange(&face, arrangement);
            let mut table: Vec<Player> = humans
                .iter()
                .map(|h| Player {
                    name: h.clone(),
                    kind: Kind::Human,
                    tokens: 0,
                })
                .collect();
            let robots_names = [
                "Ada", "Blaise", "Carl", "Dora", "Emmy", "Felix", "Grace", "Hugo",
            ];
            for name in robots_names.iter().take(players - humans.len()) {
                table.push(Player {
                    name: (*name).to_string(),
                    kind: Kind::Computer { strength },
                    tokens: 0,
                });
            }
            outln!("Micro Robots on {}", board.name);
            out!(
                "{}",
                micro_robots::board::render(&board, std::io::stdout().is_terminal())
            );
            let mut terminal = TerminalHumans;
            let mut none = micro_robots::game::NoHumans;
            let humans: &mut dyn micro_robots::game::Humans = if humans.is_empty() {
                &mut none
            } else {
                &mut terminal
            };
            micro_robots::game::play(&board, table, variant, seed, humans, &mut |line| {
                outln!("{line}")
            });
        }
    }
    Ok(())
}

/// Humans answer at the terminal; their thinking time is measured for real.
struct TerminalHumans;

fn ask(prompt: &str) -> Option<String> {
    use std::io::BufRead;
    out!("{prompt}");
    let mut line = String::new();
    match std::io::stdin().lock().read_line(&mut line) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(line.trim().to_string()),
    }
}

impl micro_robots::game::Humans for TerminalHumans {
    fn announce(
        &mut self,
        name: &str,
        board: &MicroBoard,
        start: Cell,
        via: Option<Cell>,
        target: Cell,
    ) -> Option<(u32, f64)> {
        out!(
            "{}",
            micro_robots::board::render(
                board,
                std::io::IsTerminal::is_terminal(&std::io::stdout())
            )
        );
        let through = via
            .map(|v| format!(", stopping on {v}"))
            .unwrap_or_default();
        let started = std::time::Instant::now();
        loop {
            let answer = ask(&format!(
                "{name}: from {start} to {target}{through}: how many moves? (Enter to pass) "
            ))?;
            if answer.is_empty() {
                return None;
            }
            match answer.parse() {
                Ok(n) => return Some((n, started.elapsed().as_secs_f64())),
                Err(_) => outln!("a number of moves, please"),
            }
        }
    }

    fn demonstrate(&mut self, name: &str, announced: u32) -> Vec<Cell> {
        loop {
            let Some(answer) = ask(&format!(
                "{name}: show your {announced} stops, such as `P6 W6 R6`: "
            )) else {
                return Vec::new();
            };
            let cells: Option<Vec<Cell>> = answer.split_whitespace().map(Cell::parse).collect();
            match cells {
                Some(cells) => return cells,
                None => outln!("cells are written like P6 (colour letter, number)"),
            }
        }
    }
}

// ---------------------------------------------------------------------------- Ricochet Robots

use robots::ricochet::{self as ricochet_robots, position::Position as RicochetPosition};

fn ricochet_position(path: &Path) -> Result<RicochetPosition, String> {
    let text = read_text(path)?;
    let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let read = |name: &str| read_text(&base.join(name));
    ricochet_robots::position::parse(&path.display().to_string(), &text, &read)
        .map_err(|d| d.to_string())
}

fn ricochet(command: RicochetCommand) -> Result<(), Failure> {
    match command {
        RicochetCommand::Board { position } => {
            let p = ricochet_position(&position)?;
            out!(
                "{}",
                ricochet_robots::board::render_with_goal(&p.board, &p.robots, Some(p.goal.cell))
            );
        }
        RicochetCommand::Solve {
            position,
            json,
            max_moves,
        } => {
            let p = ricochet_position(&position)?;
            let solution = ricochet_robots::solve::solve(&p, max_moves)
                .map_err(|_| Failure::NoAnswer(format!("no solution within {max_moves} moves")))?;
            if json {
                outln!(
                    "{}",
                    serde_json::to_string(&solution).expect("a solution serialises")
                );
            } else {
                let moves: Vec<String> =
                    solution.solution.iter().map(ToString::to_string).collect();
                let word = if solution.moves == 1 { "move" } else { "moves" };
                outln!("{} {word}: {}", solution.moves, moves.join(", "));
            }
        }
        RicochetCommand::Bench => {
            let mut total = 0.0;
            let mut highest = 0;
            for (name, p) in ricochet_robots::bench::positions() {
                memory::reset_peak();
                let started = std::time::Instant::now();
                let answer = ricochet_robots::solve::solve(&p, 40);
                let seconds = started.elapsed().as_secs_f64();
                let peak = memory::peak();
                total += seconds;
                highest = highest.max(peak);
                let moves = answer.map_or("none".to_string(), |s| s.moves.to_string());
                outln!(
                    "{name:<10} {moves:>4} moves {:>10.3} ms {:>8.1} MiB peak",
                    seconds * 1e3,
                    peak as f64 / 1048576.0
                );
            }
            outln!(
                "all {} positions: {total:.3} s; highest peak {:.1} MiB",
                ricochet_robots::bench::positions().len(),
                highest as f64 / 1048576.0
            );
        }
        RicochetCommand::Play {
            players,
            seed,
            humans,
            strength,
            board,
            no_ricochet,
        } => {
            use ricochet_robots::game::{Kind, Player};
            if !(2..=8).contains(&players) || humans.len() > players {
                return Err(Failure::Bad(format!(
                    "--players {players}: 2 to 8 players, at least as many as --human names"
                )));
            }
            if !(1..=4).contains(&strength) {
                return Err(Failure::Bad("--strength: 1 to 4".into()));
            }
            let board = match board {
                Some(path) => {
                    let text = read_text(&path)?;
                    ricochet_robots::board::parse_custom(&path.display().to_string(), &text)
                        .map_err(|d| d.to_string())?
                }
                None => {
                    let all = ricochet_robots::board::original_arrangements();
                    ricochet_robots::board::from_quadrants(
                        &all[(seed % all.len() as u64) as usize],
                    )?
                }
            };
            let mut table: Vec<Player> = humans
                .iter()
                .map(|h| Player {
                    name: h.clone(),
                    kind: Kind::Human,
                    tokens: 0,
                })
                .collect();
            for name in [
                "Ada", "Blaise", "Carl", "Dora", "Emmy", "Felix", "Grace", "Hugo",
            ]
            .iter()
            .take(players - humans.len())
            {
                table.push(Player {
                    name: (*name).to_string(),
                    kind: Kind::Computer { strength },
                    tokens: 0,
                });
            }
            let rules = ricochet_robots::position::Rules {
                must_ricochet: !no_ricochet,
                no_single_move: false,
            };
            outln!(
                "Ricochet Robots on {} ({} players, seed {seed})",
                board.name,
                table.len()
            );
            let mut terminal = RicochetHumans;
            let mut none = ricochet_robots::game::NoHumans;
            let humans: &mut dyn ricochet_robots::game::Humans = if humans.is_empty() {
                &mut none
            } else {
                &mut terminal
            };
            ricochet_robots::game::play(&board, table, seed, rules, humans, &mut |line| {
                outln!("{line}")
            });
        }
        RicochetCommand::Random { seed, robots } => {
            if !(4..=5).contains(&robots) {
                return Err(Failure::Bad(
                    "--robots: 4, or 5 with the silver robot".into(),
                ));
            }
            out!("{}", ricochet_robots::position::random_yaml(seed, robots));
        }
        RicochetCommand::Check { position, moves } => {
            let p = ricochet_position(&position)?;
            let moves = ricochet_robots::position::parse_moves(&moves)?;
            match ricochet_robots::solve::check(&p, &moves) {
                Ok(n) => outln!("valid: {n} moves"),
                Err(why) => return Err(Failure::NoAnswer(format!("not valid: {why}"))),
            }
        }
    }
    Ok(())
}

/// Humans bid and show their moves at the terminal; their thinking time is measured for real.
struct RicochetHumans;

impl ricochet_robots::game::Humans for RicochetHumans {
    fn bid(&mut self, name: &str, _: &RicochetPosition, drawing: &str) -> Vec<(f64, u32)> {
        out!("{drawing}");
        let started = std::time::Instant::now();
        loop {
            let Some(answer) = ask(&format!(
                "{name}: your bid (number of moves), or Enter to pass: "
            )) else {
                return Vec::new();
            };
            if answer.is_empty() {
                return Vec::new();
            }
            match answer.parse() {
                Ok(n) => return vec![(started.elapsed().as_secs_f64(), n)],
                Err(_) => outln!("a number of moves, please"),
            }
        }
    }

    fn demonstrate(&mut self, name: &str, bid: u32) -> Vec<ricochet_robots::position::Move> {
        loop {
            let Some(answer) = ask(&format!(
                "{name}: show your {bid} moves, such as `blue N, red W`: "
            )) else {
                return Vec::new();
            };
            match ricochet_robots::position::parse_moves(&answer) {
                Ok(moves) => return moves,
                Err(e) => outln!("{e}"),
            }
        }
    }
}
