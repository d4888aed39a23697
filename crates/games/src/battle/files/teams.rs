//! A match from `--team COLOUR=PROGRAM` flags (`robots run`, `debug`, `play`; the browser's
//! settings): the flags become a match file's text, read as any other (so the same checks
//! apply): K copies of each team's program, on a shipped board or a board file.

use crate::battle::engine::MAX_TEAM_ROBOTS;
use crate::battle::files::shipped;
use crate::battle::lang::Keywords;
use crate::text::diagnostic::Diagnostic;
use crate::text::escape;
use std::fmt::Write;

/// The most teams a match from flags may name (the boards have at most six camps).
pub const MAX_TEAMS: usize = 6;

/// What a match from flags plays besides its teams.
#[derive(Clone, Copy, Debug)]
pub struct Ground<'a> {
    /// Robots a team (`--robots`), each a copy of the team's program.
    pub robots: usize,
    /// A shipped board's name or a board file (`--board`).
    pub board: &'a str,
    /// The scenario, 1 to 3 (the command line's is 1).
    pub scenario: u32,
    /// The language (the command line's is plain).
    pub keywords: Keywords,
}

/// The text of the match file of `--team COLOUR=PROGRAM …` on `ground`; `known` says whether
/// a program that is not shipped can be read. Errors name the flag at fault.
pub fn match_text(
    teams: &[String],
    ground: Ground,
    known: &dyn Fn(&str) -> bool,
) -> Result<String, Diagnostic> {
    let flag = |message: String| Diagnostic::whole_file("--team", message);
    if !(2..=MAX_TEAMS).contains(&teams.len()) {
        return Err(flag(format!(
            "a match has 2 to {MAX_TEAMS} teams, not {}",
            teams.len()
        )));
    }
    let robots = ground.robots;
    if !(1..=MAX_TEAM_ROBOTS).contains(&robots) {
        return Err(Diagnostic::whole_file(
            "--robots",
            format!("{robots}: a team has 1 to {MAX_TEAM_ROBOTS} robots"),
        ));
    }
    let quoted = |s: &str| serde_json::to_string(s).unwrap_or_default();
    let mut text = format!(
        "name: teams\nboard: {}\nscenario: {}\n",
        quoted(ground.board),
        ground.scenario
    );
    if ground.keywords != Keywords::Plain {
        let _ = writeln!(text, "rules:\n  keywords: {}", ground.keywords.name());
    }
    text.push_str("teams:\n");
    for team in teams {
        let Some((colour, program)) = team.split_once('=') else {
            return Err(flag(format!(
                "{}: expected COLOUR=PROGRAM, such as green=hunter",
                escape(team)
            )));
        };
        let program = program.trim();
        if shipped::program(program).is_none() && !known(program) {
            return Err(flag(format!(
                "{}: no program `{}`: no such file (nor {}.robot), and no shipped program of that name (shipped: {})",
                escape(team),
                escape(program),
                escape(program),
                shipped::PROGRAMS.map(|(n, _)| n).join(", ")
            )));
        }
        let _ = write!(text, "  - colour: {}\n    robots:\n", quoted(colour.trim()));
        for _ in 0..robots {
            let _ = writeln!(text, "      - program: {}", quoted(program));
        }
    }
    Ok(text)
}
