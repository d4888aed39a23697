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
use flags::RicochetCli;
use game_flags::{RicochetCommand, SolveOnly};
use std::ffi::OsString;

/// The command line, parsed; on an error, clap's message and exit (2), except that a
/// mistyped command is answered with the nearest command by edit distance (`rn` → `run`;
/// clap's own guess prefers long names that share letters, `tournament`).
pub fn parse() -> flags::Cli {
    let args: Vec<OsString> = std::env::args_os().collect();
    if args.get(1).is_some_and(|a| a == "ricochet") {
        let alone = if args.get(2).is_some_and(|a| a == "solve") {
            parse_from::<RicochetCli<SolveOnly>>(&args).map(flags::Cli::from)
        } else {
            parse_from::<RicochetCli<RicochetCommand>>(&args).map(flags::Cli::from)
        };
        if let Ok(cli) = alone {
            return cli;
        }
    }
    let e = match parse_from::<flags::Cli>(&args) {
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
            let word = robots_games::text::escape(word);
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

/// `T` read from `args` as clap's `Parser::try_parse` reads it, but its command tree is left
/// for the end of the process to free (freeing it took half as long as building it).
fn parse_from<T: Parser>(args: &[OsString]) -> Result<T, clap::Error> {
    let mut command = T::command();
    let parsed = command
        .try_get_matches_from_mut(args)
        .and_then(|mut matches| {
            T::from_arg_matches_mut(&mut matches).map_err(|e| e.format(&mut T::command()))
        });
    std::mem::forget(command);
    parsed
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

    /// `robots ricochet …` read by the command alone accepts and refuses what the whole
    /// command line does (whose messages and help are shown: [`super::parse`] reads again
    /// whatever the command alone refuses), and finds the same values.
    #[test]
    fn ricochet_alone_reads_as_the_whole_command_line() {
        use super::flags::Cli;
        use super::{RicochetCli, RicochetCommand, SolveOnly};
        use clap::CommandFactory;
        let full = Cli::command();
        let ricochet = full
            .find_subcommand("ricochet")
            .expect("a ricochet command");
        let mut lines: Vec<Vec<String>> = vec![vec!["--help".into()], vec![]];
        for sub in ricochet.get_subcommands() {
            lines.push(vec![sub.get_name().into(), "--help".into()]);
        }
        for line in [
            "solve --id 0325+40+2495AECB+14 --must-ricochet off --json",
            "solve --color never --id 0325+40+2495AECB+14 --max-moves 3",
            "solve x.yaml --id 0325+40+2495AECB+14",
            "solve x.yaml --all --limit 3 --max-states 10",
            "solve x.yaml --limit 3",
            "solve --must-ricochet off",
            "solve --id 0325+40+2495AECB+14 --must-ricochet maybe",
            "solve",
            "solve --help",
            "solve --id",
            "slove --id 1",
            "random --seed 3 --id",
            "random --seed x",
            "--version",
            "board --random --size 8x8 --color always",
            "hint p.yaml --level 3",
            "hardest 1A,2A,3A,4A --robots 2 --color never",
            "bench --json",
        ] {
            lines.push(line.split(' ').map(String::from).collect());
        }
        for line in lines {
            let args: Vec<std::ffi::OsString> = ["robots", "ricochet"]
                .into_iter()
                .map(String::from)
                .chain(line.iter().cloned())
                .map(Into::into)
                .collect();
            let read = |mut command: clap::Command| {
                command
                    .try_get_matches_from_mut(&args)
                    .map(|m| m.subcommand_matches("ricochet").cloned())
                    .map_err(|e| e.kind())
            };
            let whole = read(Cli::command());
            assert_eq!(
                read(RicochetCli::<RicochetCommand>::command()),
                whole,
                "{line:?}"
            );
            if line.first().is_some_and(|w| w == "solve") {
                assert_eq!(read(RicochetCli::<SolveOnly>::command()), whole, "{line:?}");
            }
        }
    }
}
