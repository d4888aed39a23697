//! The text `robots run` prints for a match: how it starts (the match, the board, the seed,
//! each team's programs, the first drawing), the rounds played or the log, and how it ends
//! (the last drawing, the verdict, who is left). Pure: the binary prints these strings and
//! the browser's engine (`crates/web`) returns them, so the two agree byte for byte.

use crate::battle::engine::{Match, MatchSetup, Outcome, RobotName, TeamSetup};
use crate::battle::show::render;
use crate::battle::terrain::TeamColour;
use crate::text::{count, escape};
use std::fmt::Write;
use std::path::Path;

/// Which match, where, with which seed, each team's programs, and how it starts.
pub fn start(setup: &MatchSetup, game: &Match, colour: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} on {} (scenario {}, seed {}); {} plays first",
        escape(&setup.name),
        escape(&game.board().name),
        game.scenario().number(),
        game.seed(),
        game.team(game.first_team()).colour,
    );
    for team in &setup.teams {
        let _ = writeln!(out, "  {}: {}", team.colour, programs_of(team));
    }
    out.push_str(&render::state_in(game, colour));
    out
}

/// What `robots run` prints between the start and the end without `--log`.
pub fn rounds_of_play(rounds: u32) -> String {
    format!("… {} of play …\n\n", count(rounds, "round"))
}

/// The final board, the verdict and who is left.
pub fn end(game: &Match, outcome: &Outcome, colour: bool) -> String {
    let mut out = render::state_in(game, colour);
    let _ = writeln!(
        out,
        "\n{} after {}",
        outcome.verdict(),
        count(outcome.rounds, "round")
    );
    for (colour, left) in survivors(game) {
        let _ = writeln!(out, "  {colour} robots left: {left}");
    }
    out
}

/// Each team's robots left, by name (`green.1, green.3`), or `none`.
pub fn survivors(game: &Match) -> Vec<(TeamColour, String)> {
    let list = |names: Vec<RobotName>| match names.as_slice() {
        [] => "none".to_string(),
        names => names
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", "),
    };
    let teams = game.survivors().into_iter();
    teams.map(|(colour, names)| (colour, list(names))).collect()
}

/// A team's programs by name (a file's stem), a run of the same one counted: `hunter ×3`,
/// `sentinel, hunter ×2`.
fn programs_of(team: &TeamSetup) -> String {
    let mut runs: Vec<(String, usize)> = Vec::new();
    for robot in &team.robots {
        let name = Path::new(&robot.origin).file_stem().map_or_else(
            || robot.origin.clone(),
            |s| s.to_string_lossy().into_owned(),
        );
        match runs.last_mut() {
            Some((last, n)) if *last == name => *n += 1,
            _ => runs.push((name, 1)),
        }
    }
    let words: Vec<String> = runs
        .iter()
        .map(|(name, n)| match n {
            1 => escape(name).into_owned(),
            n => format!("{} ×{n}", escape(name)),
        })
        .collect();
    words.join(", ")
}
