//! `robots play`: a game at the table (RULES A.7–A.8) on a [`HotSeat`]. In a terminal, a
//! full-screen view (`screen.rs`); otherwise the players' answers are lines and the game a
//! transcript (`script.rs`), as `robots debug` does with commands.
//!
//! - `screen.rs`: the placement screen, the match on the debugger's screen, the keys.
//! - `script.rs`: answers read as lines, the transcript printed.
//! - `tests.rs`: the screens in `TestBackend`, driven by keys.

mod screen;
mod script;
#[cfg(test)]
mod tests;

use super::battle::load_match;
use crate::cli::args::flags::{PlayArgs, confine};
use crate::cli::io::files::read_bytes;
use crate::cli::io::output::Failure;
use robots_games::battle::board::CellId;
use robots_games::battle::engine::{Match, MatchSetup};
use robots_games::battle::files::match_file;
use robots_games::battle::hex::Direction;
use robots_games::battle::live::hot_seat::HotSeat;
use robots_games::battle::terrain::TeamColour;
use robots_games::text::escape;
use std::path::Path;

/// Teams at one table.
const TEAMS: std::ops::RangeInclusive<usize> = 2..=4;

pub fn run(args: &PlayArgs) -> Result<(), Failure> {
    use std::io::IsTerminal;
    let mut setup = match args.teams.is_empty() {
        true => load_match(
            "play",
            args.file.as_deref(),
            confine(args.allow_outside),
            None,
        )?,
        false => from_teams(args)?,
    };
    if let Some(seed) = args.seed {
        setup.seed = seed;
    }
    if !TEAMS.contains(&setup.teams.len()) {
        return Err(Failure::Bad(format!(
            "a game at the table has 2 to 4 teams; this match has {}",
            setup.teams.len()
        )));
    }
    let mut players = Vec::new();
    for word in &args.humans {
        players.push(TeamColour::parse(word).ok_or_else(|| {
            format!(
                "--human {}: expected a team colour (green, violet, red, blue, yellow, orange)",
                escape(word)
            )
        })?);
    }
    let table = HotSeat::new(setup, &players).map_err(|e| Failure::Bad(e.to_string()))?;
    if std::io::stdin().is_terminal() && std::io::stdout().is_terminal() {
        return screen::run(table).map_err(|e| Failure::Bad(format!("the terminal failed: {e}")));
    }
    script::run(
        table,
        crate::cli::io::prompt::lines(std::io::stdin().lock()),
    )
}

/// The match of `--team COLOUR=PROGRAM …`: a match file written from the flags, read as any
/// other (so the same checks apply), scenario 1.
fn from_teams(args: &PlayArgs) -> Result<MatchSetup, Failure> {
    if !TEAMS.contains(&args.teams.len()) {
        return Err(Failure::Bad(format!(
            "--team: a game at the table has 2 to 4 teams, not {}",
            args.teams.len()
        )));
    }
    if !(1..=robots_games::battle::engine::MAX_TEAM_ROBOTS).contains(&args.robots) {
        return Err(Failure::Bad(format!(
            "--robots {}: a team has 1 to {} robots",
            args.robots,
            robots_games::battle::engine::MAX_TEAM_ROBOTS
        )));
    }
    let quoted = |s: &str| serde_json::to_string(s).unwrap_or_default();
    let mut text = format!(
        "name: play\nboard: {}\nscenario: 1\nteams:\n",
        quoted(&args.board)
    );
    for team in &args.teams {
        let Some((colour, program)) = team.split_once('=') else {
            return Err(Failure::Bad(format!(
                "--team {}: expected COLOUR=PROGRAM, such as green=hunter",
                escape(team)
            )));
        };
        text.push_str(&format!(
            "  - colour: {}\n    robots:\n",
            quoted(colour.trim())
        ));
        for _ in 0..args.robots {
            text.push_str(&format!("      - program: {}\n", quoted(program.trim())));
        }
    }
    Ok(match_file::parse_match(
        "play",
        &text,
        &read_bytes,
        confine(args.allow_outside),
    )?)
}

/// Writes the game as a match file (`replay: false`) or a replay, refusing to overwrite.
fn save(table: &HotSeat, path: &Path, replay: bool) -> Result<String, String> {
    let shown = escape(&path.display().to_string()).into_owned();
    // A link counts as there, even one that leads nowhere: nothing is written through it.
    if std::fs::symlink_metadata(path).is_ok() {
        return Err(format!("{shown} exists: choose another name"));
    }
    let setup = table
        .saved_setup()
        .ok_or("the match has not started: nothing to save")?;
    if !replay {
        let text = table.match_file().ok_or(
            "a match file names a shipped board, and this board is not one: save the replay (it holds the board)",
        )?;
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .and_then(|mut f| std::io::Write::write_all(&mut f, text.as_bytes()))
            .map_err(|e| format!("{shown}: cannot write: {e}"))?;
        return Ok(format!(
            "wrote the match file {shown}: `robots run` or `robots debug` plays it again"
        ));
    }
    let mut game = Match::new(&setup).map_err(|e| e.to_string())?;
    let mut recorder = super::replay::Recorder::create(path, &setup, &game).map_err(message)?;
    let mut events = Vec::new();
    while {
        events.clear();
        game.step_into(&mut events)
    } {
        recorder.turn(&events).map_err(message)?;
    }
    let outcome = game.outcome().ok_or("the match did not end")?.clone();
    recorder.finish(&outcome).map_err(message)?;
    Ok(format!(
        "wrote the replay {shown}: `robots replay` or `robots run --html` shows it"
    ))
}

/// A failure's words.
fn message(f: Failure) -> String {
    match f {
        Failure::Bad(m) | Failure::NoAnswer(m) => m,
    }
}

/// Where a robot stands, as the players read it: `[col, row] facing 2 ↘`.
fn placement_text(table: &HotSeat, cell: CellId, facing: Direction) -> String {
    let (col, row) = table.setup().board.offset(cell);
    format!(
        "[{col}, {row}] facing {} {}",
        facing.number(),
        facing.arrow()
    )
}

/// The end of the match: the result and the survivors.
fn result_text(m: &Match) -> String {
    let mut out = String::new();
    if let Some(o) = m.outcome() {
        out.push_str(&format!(
            "the match is over: {} after round {}\n",
            o.verdict(),
            o.rounds
        ));
    }
    for (colour, names) in robots_games::battle::show::run_text::survivors(m) {
        out.push_str(&format!("{colour} robots left: {names}\n"));
    }
    out
}
