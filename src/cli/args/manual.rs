//! `robots completions SHELL` and `robots man`: the shell completion scripts and the manual
//! page, generated from the same clap definitions as the parser, so they never drift.

use crate::cli::args::flags::Cli;
use crate::cli::io::output::Failure;
use clap::CommandFactory;

/// A completion script for `shell` (bash, zsh, fish, powershell, elvish) on stdout.
pub fn completions(shell: clap_complete::Shell) -> Result<(), Failure> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "robots", &mut script);
    out!("{}", String::from_utf8_lossy(&script));
    Ok(())
}

/// The manual page (roff, section 1) on stdout: every command and flag with its words.
pub fn man() -> Result<(), Failure> {
    out!("{}", page()?);
    Ok(())
}

/// The manual page: `robots` and, after it, each command's own page in one document.
fn page() -> Result<String, Failure> {
    let command = Cli::command();
    let mut text = Vec::new();
    let render = |c: clap::Command, text: &mut Vec<u8>| {
        clap_mangen::Man::new(c)
            .render(text)
            .map_err(|e| Failure::Bad(format!("cannot write the manual: {e}")))
    };
    render(command.clone(), &mut text)?;
    for sub in command.get_subcommands() {
        let name = format!("robots-{}", sub.get_name());
        render(sub.clone().name(name), &mut text)?;
    }
    Ok(String::from_utf8_lossy(&text).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completions_name_every_command_in_every_shell() {
        for shell in [
            clap_complete::Shell::Bash,
            clap_complete::Shell::Zsh,
            clap_complete::Shell::Fish,
            clap_complete::Shell::PowerShell,
        ] {
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "robots", &mut script);
            let script = String::from_utf8(script).unwrap();
            for command in [
                "run",
                "check",
                "debug",
                "ricochet",
                "micro",
                "--deny-warnings",
            ] {
                assert!(script.contains(command), "{shell:?} lacks {command}");
            }
        }
    }

    #[test]
    fn the_manual_page_has_every_command_and_its_words() {
        let Ok(page) = page() else {
            panic!("the manual page renders")
        };
        assert!(page.starts_with(".ie"), "roff");
        for text in [
            ".TH robots 1",
            ".TH robots-run 1",
            ".TH robots-ricochet 1",
            "deny\\-warnings",
        ] {
            assert!(page.contains(text), "the manual lacks {text}");
        }
    }
}
