//! `--team COLOUR=PROGRAM` (`robots run`, `debug`, `play`): a match from the command line,
//! with no match file to write. The flags become a match file's text
//! (`battle::files::teams`), read as any other: scenario 1, K copies of each team's program,
//! on a shipped board or a board file.

use robots_games::battle::engine::MatchSetup;
use robots_games::battle::files::match_file;
use robots_games::battle::files::teams::{Ground, match_text};
use robots_games::battle::lang::Keywords;
use robots_games::text::confine::Confine;
use robots_games::text::diagnostic::Diagnostic;
use std::path::Path;

/// The match of `--team COLOUR=PROGRAM …` (`K` robots a team, on `board`); `rounds`
/// overrides the rules' round limit. Errors name the flag at fault.
pub fn setup(
    teams: &[String],
    (robots, board): (usize, &str),
    confine: Confine,
    rounds: Option<u32>,
) -> Result<MatchSetup, Diagnostic> {
    let ground = Ground {
        robots,
        board,
        scenario: 1,
        keywords: Keywords::Plain,
    };
    let text = match_text(teams, ground, &known)?;
    // Programs and a board file are read from the current folder.
    let fetch = crate::cli::io::files::fetcher(Path::new("teams"));
    match_file::parse_match_rounds("teams", &text, &fetch, confine, rounds)
}

/// A file here (with or without `.robot`).
fn known(program: &str) -> bool {
    Path::new(program).is_file() || Path::new(&format!("{program}.robot")).is_file()
}
