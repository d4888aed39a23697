//! The hex game's commands: `run`, `check`, `board`, `debug`, `bench`.

use super::files::{read_bytes, read_text};
use super::micro::micro_file;
use robots::battle::engine::{Event, Match, MatchSetup};
use robots::battle::{board_file, match_file, render, shipped};
use robots::micro::MicroFile;
use robots::text::diagnostic::Diagnostic;
use std::path::{Path, PathBuf};

pub fn load_match(file: Option<&Path>) -> Result<MatchSetup, String> {
    let (name, text) = match file {
        Some(path) => (path.display().to_string(), read_text(path)?),
        None => (
            shipped::DEFAULT_MATCH.0.to_string(),
            shipped::DEFAULT_MATCH.1.to_string(),
        ),
    };
    match_file::parse_match(&name, &text, &read_bytes).map_err(|d| d.to_string())
}

pub fn run(
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
            let keys = robots::text::yaml::top_level_keys(&text);
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
                match micro_file(&shown, &text, &base).map_err(|d| d.to_string())? {
                    MicroFile::Face(f) => Ok(format!(
                        "{shown}: ok (Micro Robots face `{}`, 4 tiles)",
                        f.name()
                    )),
                    MicroFile::Board(b) => {
                        Ok(format!("{shown}: ok (Micro Robots board `{}`)", b.name()))
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
                robots::text::yaml::from_str::<serde_yaml_probe::Any>(&shown, &text)
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

pub fn check(files: &[PathBuf]) -> Result<(), String> {
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

pub fn board(file: &str) -> Result<(), String> {
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

pub fn debug(
    file: Option<PathBuf>,
    seed: Option<u64>,
    script: Option<PathBuf>,
) -> Result<(), String> {
    use std::io::{BufRead, IsTerminal};
    let loader: robots::battle::debug::Loader = Box::new(move || {
        let mut setup = load_match(file.as_deref())?;
        if let Some(seed) = seed {
            setup.seed = seed;
        }
        Ok(setup)
    });
    let mut session = robots::battle::debug::Session::new(loader)?;
    let lines: Box<dyn Iterator<Item = std::io::Result<String>>> = match script {
        Some(path) => Box::new(
            read_text(&path)?
                .lines()
                .map(|l| Ok(l.to_string()))
                .collect::<Vec<_>>()
                .into_iter(),
        ),
        None if !std::io::stdin().is_terminal() => Box::new(std::io::stdin().lock().lines()),
        None => return super::tui::run(session).map_err(|e| format!("the terminal failed: {e}")),
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

pub fn bench(matches: u32) -> Result<(), String> {
    let workload = robots::battle::bench::workload().map_err(|d| d.to_string())?;
    let started = std::time::Instant::now();
    let report = robots::battle::bench::play(&workload, matches);
    let seconds = started.elapsed().as_secs_f64();
    outln!("matches: {}", report.matches);
    outln!("decided: {}, drawn: {}", report.decided, report.drawn);
    outln!("robot turns: {}", report.turns);
    outln!("seconds: {seconds:.3}");
    // The debugger: going back in a long match (a checkpoint and a short replay).
    let mut timeline = robots::battle::bench::long_timeline().map_err(|d| d.to_string())?;
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
