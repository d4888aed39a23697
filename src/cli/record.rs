//! `ricochet play --json` and `micro play --json` print a game's record (JSON Lines,
//! docs/FORMATS.md, "Game records") as it is played. The lines are the library's
//! (`robots_games::ricochet::report`, `robots_games::micro::report`); this prints them.

/// Starts a record on standard output: questions to human players go to standard error from
/// here on, and the `game` line is printed.
pub fn start(game_line: &str) {
    crate::cli::io::prompt::to_stderr();
    outln!("{game_line}");
}

/// Prints the lines a note completed.
pub fn print(lines: Vec<String>) {
    for line in lines {
        outln!("{line}");
    }
}
