//! The `robots` binary: parse the command line, hand it to the game's handlers in `cli/`,
//! and turn the result into an exit code (0 success, 1 no answer, 2 bad input).

mod cli;

use clap::Parser;
use cli::flags::{Cli, Command};
use cli::output::{Failure, finish};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Run {
            file,
            seed,
            rounds,
            log,
            json,
            replay,
        } => cli::battle::run(file, seed, rounds, log, json, replay),
        Command::Check { files } => cli::battle::check(&files),
        Command::Board { file } => cli::battle::board(&file),
        Command::Debug { file, seed, script } => cli::battle::debug(file, seed, script),
        Command::Bench { matches } => cli::battle::bench(matches),
        Command::Micro { command } => return finish(cli::micro::run(command)),
        Command::Ricochet { command } => return finish(cli::ricochet::run(command)),
    };
    finish(result.map_err(Failure::Bad))
}
