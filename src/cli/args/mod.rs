//! The command line: the clap types of every command and flag ([`flags`] for the hex game
//! and the shared ones, [`game_flags`] for `ricochet …` and `micro …`), and the shell
//! completions and manual page generated from them ([`manual`]).

pub mod arena_flags;
pub mod flags;
pub mod game_flags;
pub mod manual;
pub mod shared_flags;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{CommandFactory, Parser};

/// The command line, parsed; on an error, clap's message and exit (2), except that a
/// mistyped command is answered with the nearest command by edit distance (`rn` → `run`;
/// clap's own guess prefers long names that share letters, `tournament`).
pub fn parse() -> flags::Cli {
    let e = match flags::Cli::try_parse() {
        Ok(cli) => return cli,
        Err(e) => e,
    };
    if e.kind() == ErrorKind::InvalidSubcommand
        && let Some(ContextValue::String(word)) = e.get(ContextKind::InvalidSubcommand)
        && std::env::args()
            .skip(1)
            .find(|a| !a.starts_with('-'))
            .as_deref()
            == Some(word)
    {
        let mut command = flags::Cli::command();
        let names: Vec<String> = command
            .get_subcommands()
            .map(|c| c.get_name().to_string())
            .collect();
        if let Some(best) = nearest(word, &names) {
            let word = robots::text::escape(word);
            command
                .error(
                    ErrorKind::InvalidSubcommand,
                    format!(
                        "unrecognized subcommand '{word}'\n\n  tip: a similar subcommand exists: '{best}'"
                    ),
                )
                .exit();
        }
    }
    e.exit()
}

/// The name nearest `word` by edit distance (at most 2, or a third of the name), ties to the
/// one listed first.
fn nearest<'a>(word: &str, names: &'a [String]) -> Option<&'a str> {
    names
        .iter()
        .map(|n| (distance(word, n), n))
        .filter(|(d, n)| *d <= 2.max(n.chars().count() / 3))
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n.as_str())
}

/// Levenshtein's distance between two words (insertions, deletions, substitutions).
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = (previous + usize::from(ca != *cb))
                .min(row[j] + 1)
                .min(here + 1);
            previous = here;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_mistyped_command_finds_the_nearest() {
        let names: Vec<String> = ["run", "tournament", "replay", "ricochet", "debug"]
            .map(String::from)
            .to_vec();
        assert_eq!(super::nearest("rn", &names), Some("run"));
        assert_eq!(super::nearest("tournamnet", &names), Some("tournament"));
        assert_eq!(super::nearest("rikochet", &names), Some("ricochet"));
        assert_eq!(super::nearest("xyzzy", &names), None);
        assert_eq!(super::distance("kitten", "sitting"), 3);
    }
}
