//! `--team COLOUR=PROGRAM` (`robots run`, `debug`, `play`): a match from the command line,
//! with no match file to write. The flags become a match file's text, read as any other (so
//! the same checks apply): scenario 1, K copies of each team's program, on a shipped board or
//! a board file.

use robots_games::battle::engine::{MAX_TEAM_ROBOTS, MatchSetup};
use robots_games::battle::files::{match_file, shipped};
use robots_games::text::confine::Confine;
use robots_games::text::diagnostic::Diagnostic;
use robots_games::text::escape;
use std::path::Path;

/// The most teams a match from flags may name (the boards have at most six camps).
const MAX_TEAMS: usize = 6;

/// The match of `--team COLOUR=PROGRAM …` (`K` robots a team, on `board`); `rounds`
/// overrides the rules' round limit. Errors name the flag at fault.
pub fn setup(
    teams: &[String],
    (robots, board): (usize, &str),
    confine: Confine,
    rounds: Option<u32>,
) -> Result<MatchSetup, Diagnostic> {
    let flag = |message: String| Diagnostic::whole_file("--team", message);
    if !(2..=MAX_TEAMS).contains(&teams.len()) {
        return Err(flag(format!(
            "a match has 2 to {MAX_TEAMS} teams, not {}",
            teams.len()
        )));
    }
    if !(1..=MAX_TEAM_ROBOTS).contains(&robots) {
        return Err(Diagnostic::whole_file(
            "--robots",
            format!("{robots}: a team has 1 to {MAX_TEAM_ROBOTS} robots"),
        ));
    }
    let quoted = |s: &str| serde_json::to_string(s).unwrap_or_default();
    let mut text = format!(
        "name: teams\nboard: {}\nscenario: 1\nteams:\n",
        quoted(board)
    );
    for team in teams {
        let Some((colour, program)) = team.split_once('=') else {
            return Err(flag(format!(
                "{}: expected COLOUR=PROGRAM, such as green=hunter",
                escape(team)
            )));
        };
        let program = program.trim();
        if !known(program) {
            return Err(flag(format!(
                "{}: no program `{}`: no such file (nor {}.robot), and no shipped program of that name (shipped: {})",
                escape(team),
                escape(program),
                escape(program),
                shipped::PROGRAMS.map(|(n, _)| n).join(", ")
            )));
        }
        text.push_str(&format!(
            "  - colour: {}\n    robots:\n",
            quoted(colour.trim())
        ));
        for _ in 0..robots {
            text.push_str(&format!("      - program: {}\n", quoted(program)));
        }
    }
    // Programs and a board file are read from the current folder.
    let fetch = crate::cli::io::files::fetcher(Path::new("teams"));
    match_file::parse_match_rounds("teams", &text, &fetch, confine, rounds)
}

/// A shipped program's name, or a file here (with or without `.robot`).
fn known(program: &str) -> bool {
    shipped::program(program).is_some()
        || Path::new(program).is_file()
        || Path::new(&format!("{program}.robot")).is_file()
}
