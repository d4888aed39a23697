//! The `robots` binary: parse the command line, hand it to the game's handlers in `cli/`,
//! and turn the result into an exit code (0 success, 1 no answer, 2 bad input).

mod cli;

use cli::args::flags::{Cli, Command};
use cli::io::output::finish;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli: Cli = cli::args::parse();
    {
        use std::io::IsTerminal;
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        cli::io::output::set_colour(cli.color, no_color, std::io::stdout().is_terminal());
    }
    finish(match cli.command {
        Command::Run(args) => cli::battle::run(args),
        Command::Check(args) => cli::check::check(&args),
        Command::Lsp(args) => cli::lsp::run(&args),
        Command::Board { file, picture, .. } => cli::battle::board(&file, &picture),
        Command::Debug(args) => cli::battle::debug(args),
        Command::Play(args) => cli::play::run(&args),
        Command::Replay(args) => cli::battle::replay(&args),
        Command::Duel(args) => cli::compare::tournament::duel(&args),
        Command::Tournament(args) => cli::compare::tournament::tournament(&args),
        Command::Hill(args) => cli::compare::hill::run(&args),
        Command::Evolve(args) => cli::compare::evolve::run(&args),
        Command::Bench {
            tournament: true, ..
        } => cli::compare::tournament::bench(),
        Command::Bench { matches, json, .. } => cli::battle::bench(matches, json),
        Command::Serve(args) => cli::serve::run(args),
        Command::Worker(args) => cli::serve::worker(&args),
        Command::Arena(args) => cli::arena::run(&args),
        Command::Completions { shell } => cli::args::manual::completions(shell),
        Command::Man => cli::args::manual::man(),
        Command::Micro { command } => cli::micro::run(command),
        Command::Ricochet { command } => cli::ricochet::run(command),
    })
}
