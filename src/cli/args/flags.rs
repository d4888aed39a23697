//! Every clap type of the command line: commands, subcommands and their flags.

use crate::cli::args::game_flags::{MicroCommand, PictureArgs, RicochetCommand};
pub use crate::cli::args::shared_flags::{HillInit, KeywordsArg, Seeds};
use clap::{Args, Parser, Subcommand, ValueEnum};
use robots_games::text::confine::Confine;
use std::path::PathBuf;

/// The path policy `--allow-outside` chooses.
pub fn confine(allow_outside: bool) -> Confine {
    if allow_outside {
        Confine::Anywhere
    } else {
        Confine::Inside
    }
}

/// What `robots --help` says the program is.
const ABOUT: &str = "Programmed robot battles on a hex board; Ricochet Robots and Micro Robots";
/// What `robots --help` says `robots ricochet` is.
const RICOCHET_ABOUT: &str =
    "Ricochet Robots and Ricochets: boards, the optimal solver, solution checks, games";
/// What `--color` is.
const COLOR_HELP: &str = "Colour in drawings: `auto` (only on a terminal, and not when \
    NO_COLOR is set), `always` or `never`";

#[derive(Parser)]
#[command(name = "robots", version, about = ABOUT, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    #[arg(long, global = true, value_enum, default_value_t = ColourChoice::Auto, help = COLOR_HELP)]
    pub color: ColourChoice,
}

/// [`Cli`] with `ricochet` its only command, and `C` that command's commands (all of them,
/// or `solve` alone): `robots ricochet …` is read with it first, without building every
/// other command (issue 37: that was a third of the start of a quick `ricochet solve`).
/// Whatever it refuses, `--help` included, [`Cli`] reads again, so that every message is
/// [`Cli`]'s.
#[derive(Parser)]
#[command(name = "robots", version, about = ABOUT, long_about = None)]
pub struct RicochetCli<C: Subcommand> {
    #[command(subcommand)]
    pub command: RicochetOnly<C>,
    #[arg(long, global = true, value_enum, default_value_t = ColourChoice::Auto, help = COLOR_HELP)]
    pub color: ColourChoice,
}

/// The one command of [`RicochetCli`].
#[derive(Subcommand)]
pub enum RicochetOnly<C: Subcommand> {
    #[command(about = RICOCHET_ABOUT)]
    Ricochet {
        #[command(subcommand)]
        command: C,
    },
}

impl<C: Subcommand + Into<RicochetCommand>> From<RicochetCli<C>> for Cli {
    fn from(cli: RicochetCli<C>) -> Cli {
        let RicochetOnly::Ricochet { command } = cli.command;
        Cli {
            command: Command::Ricochet {
                command: command.into(),
            },
            color: cli.color,
        }
    }
}

/// When drawings are in colour (`--color`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColourChoice {
    Auto,
    Always,
    Never,
}

/// `robots run`.
#[derive(Args)]
pub struct RunArgs {
    /// A match file (YAML); with none and no --team, the shipped default match.
    #[arg(value_name = "MATCH")]
    pub file: Option<PathBuf>,
    #[command(flatten)]
    pub team: super::shared_flags::TeamArgs,
    /// The seed of the match's random generator, which places the robots and draws the
    /// first player [default: the match file's `seed:`, else 1].
    #[arg(long)]
    pub seed: Option<u64>,
    /// The round limit: reaching it is a draw; 1 to 4294967295 [default: the match file's
    /// `rules.rounds`, else 200].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub rounds: Option<u32>,
    /// Print every event as it happens.
    #[arg(long, conflicts_with = "json")]
    pub log: bool,
    /// Print the result as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Write a replay to FILE as the match is played: the board, programs, seed and every
    /// event, one JSON line per robot turn (`-`: standard output; `*.gz`: gzip-compressed).
    #[arg(long, value_name = "FILE")]
    pub replay: Option<PathBuf>,
    /// Write the match as a replay page to FILE (`-`: standard output): one HTML file with
    /// the board, the programs and the log, to open in a browser (docs/VIEWER.md).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["log", "json", "replay"])]
    pub html: Option<PathBuf>,
    /// Let files name files outside their own folder (absolute paths, `..`).
    #[arg(long)]
    pub allow_outside: bool,
    #[command(flatten)]
    pub picture: MatchPictureArgs,
}

/// Pictures of a match (docs/FORMATS.md, "Pictures"), written besides the usual output.
#[derive(Args, Clone, Debug, Default)]
pub struct MatchPictureArgs {
    /// Write the match's state as SVG to FILE (`-`: standard output): after --round, else
    /// at the end, with what its last robot turn did.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Write the match's state as PNG to FILE (`-`: standard output, never a terminal), as
    /// --svg draws it.
    #[arg(long, value_name = "FILE")]
    pub png: Option<PathBuf>,
    /// Write the whole match as an animated GIF to FILE (`-`: standard output, never a
    /// terminal): a frame for every robot turn that changes the picture.
    #[arg(long, value_name = "FILE")]
    pub gif: Option<PathBuf>,
    /// The round after which --svg and --png draw the match (0: before play) [default: the
    /// end of the match].
    #[arg(long, value_name = "N")]
    pub round: Option<u32>,
}

/// `robots replay`.
#[derive(Args)]
pub struct ReplayArgs {
    /// A replay written by `robots run --replay` (`-`: standard input; gzip-compressed or not).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Write the replay page instead of the log: one self-contained HTML file to open in a
    /// browser (docs/VIEWER.md; `-`: standard output).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Pictures of the replay's match, written instead of the log.
    #[command(flatten)]
    pub picture: MatchPictureArgs,
}

/// `robots debug`.
#[derive(Args)]
pub struct DebugArgs {
    /// A match file (YAML); with none and no --team, the shipped default match.
    #[arg(value_name = "MATCH")]
    pub file: Option<PathBuf>,
    #[command(flatten)]
    pub team: super::shared_flags::TeamArgs,
    /// The seed of the match's random generator.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Read commands from FILE and print a transcript (docs/DEBUGGER.md).
    #[arg(long, value_name = "FILE")]
    pub script: Option<PathBuf>,
    /// Open the match of a replay (written by `robots run --replay`), once every turn of it
    /// has been played again and found to agree.
    #[arg(long, value_name = "REPLAY", conflicts_with_all = ["file", "seed", "teams"])]
    pub replay: Option<PathBuf>,
    /// Let files name files outside their own folder (absolute paths, `..`).
    #[arg(long)]
    pub allow_outside: bool,
}

/// `robots play`.
#[derive(Args)]
pub struct PlayArgs {
    /// A match file (YAML); with none and no --team, the shipped default match.
    #[arg(value_name = "MATCH")]
    pub file: Option<PathBuf>,
    /// A team played at this terminal: it places its robots by hand and sends its own
    /// signals (repeat for each). The other teams are placed and signalled as the match file
    /// says, or by the seeded generator.
    #[arg(long = "human", value_name = "COLOUR")]
    pub humans: Vec<String>,
    /// The seed of the match's random generator (placements drawn, the first player).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Without a MATCH: a team and its program (a `.robot` file or a shipped name), in play
    /// order round the table; 2 to 4 of them.
    #[arg(long = "team", value_name = "COLOUR=PROGRAM", conflicts_with = "file")]
    pub teams: Vec<String>,
    /// With --team: robots a team, K copies of its program (1 to 9).
    #[arg(long, value_name = "K", default_value_t = 3, requires = "teams")]
    pub robots: usize,
    /// With --team: the board, a shipped board's name (classic, duel, melee) or a board file.
    #[arg(long, default_value = "classic", requires = "teams")]
    pub board: String,
    /// Let files name files outside their own folder (absolute paths, `..`).
    #[arg(long)]
    pub allow_outside: bool,
}

#[derive(Subcommand)]
pub enum Command {
    /// Play a match and print the result (with no MATCH: the shipped default match).
    Run(RunArgs),
    /// Check programs (.robot), boards and match files (.yaml); exit 2 on any error.
    /// Warnings (a program that loads but will misbehave) do not fail the check unless
    /// --deny-warnings.
    Check(CheckArgs),
    /// Serve the editor protocol (LSP) over stdio for .robot files (docs/EDITORS.md).
    Lsp(LspArgs),
    /// Draw a board (a file, or the name of a shipped board).
    Board {
        /// A hex board file (YAML), or a shipped board's name: classic, duel, melee.
        #[arg(value_name = "FILE")]
        file: String,
        /// Accepted like the other hex commands' (board files name no other file).
        #[arg(long)]
        allow_outside: bool,
        #[command(flatten)]
        picture: PictureArgs,
    },
    /// Print the match of a replay file as `run --log` does, each turn played again and
    /// checked against the file.
    Replay(ReplayArgs),
    /// Step through a match forward and back (a terminal UI; reads commands when stdin is not
    /// a terminal, or from --script). With no MATCH: the default match of `run`.
    Debug(DebugArgs),
    /// A game at the table (hot seat): the players named by --human place their robots one by
    /// one with a facing, watch the match unfold and send secret signals at the end of their
    /// turns (docs/PLAY.md). A full-screen view in a terminal; answers read as lines otherwise.
    Play(PlayArgs),
    /// Micro Robots: boards, the optimal solver, the analysis of a face, games.
    Micro {
        #[command(subcommand)]
        command: MicroCommand,
    },
    #[command(about = RICOCHET_ABOUT)]
    Ricochet {
        #[command(subcommand)]
        command: RicochetCommand,
    },
    /// Head to head: two programs, each side K copies of one, both colour assignments over
    /// a range of seeds; wins, draws, losses and the win rate with its 95 % interval.
    Duel(DuelArgs),
    /// Every pairing of programs, both colour assignments, N seeds each: the standings
    /// (points, win rate, rating) and the head-to-head matrix (docs/TOURNAMENTS.md).
    Tournament(TournamentArgs),
    /// King of the hill: a newcomer plays every program on the hill (as a tournament pairs
    /// them), the standings are ranked again and the last is pushed off (docs/TOURNAMENTS.md,
    /// "The hill"). With no command: the standings.
    Hill(HillArgs),
    /// Breed programs by evolution against a benchmark set (the shipped programs by default)
    /// and a hall of fame of earlier champions; write the champions as commented `.robot`
    /// files (docs/EVOLVE.md).
    Evolve(EvolveArgs),
    /// Play a fixed workload of matches and report robot turns per second.
    Bench {
        /// How many matches to play.
        #[arg(long, default_value_t = 10_000)]
        matches: u32,
        /// Print the figures as one JSON object (docs/FORMATS.md, "Benchmark figures").
        #[arg(long)]
        json: bool,
        /// Time the tournament of the shipped programs instead (20 seeds, the defaults of
        /// `robots tournament`): matches per second on one thread and on every core.
        #[arg(long, conflicts_with_all = ["matches", "json"])]
        tournament: bool,
    },
    /// The arena on the web (docs/ARENA.md): accounts, hills, placement at once, standings
    /// and matches in the browser. With no command: the server.
    Serve(crate::cli::args::arena_flags::ServeArgs),
    /// Placement workers for an arena's shared database, on any machine (docs/SCALE.md):
    /// they claim pieces of placements, play them and store each match once.
    Worker(crate::cli::args::arena_flags::WorkerArgs),
    /// The client of an arena: submit a program to a hill (docs/ARENA.md).
    Arena(crate::cli::args::arena_flags::ArenaArgs),
    /// Print a shell completion script (README, "Installing").
    Completions {
        /// The shell: bash, zsh, fish, powershell or elvish.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff): `robots man > robots.1`.
    Man,
}

#[derive(Args)]
pub struct CheckArgs {
    /// The files to check: programs, hex boards, match files, Ricochet and Micro Robots files.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Let files name files outside their own folder (absolute paths, `..`).
    #[arg(long)]
    pub allow_outside: bool,
    /// Exit 2 when there is any warning, as for an error.
    #[arg(long)]
    pub deny_warnings: bool,
    /// How to print diagnostics: words for a person, or one JSON object a line for an
    /// editor (file, line, column, end, severity, id, message).
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    pub format: CheckFormat,
    /// The language of program files: plain, or ti57 with the calculator keywords and 50
    /// steps (RULES A.12). A match file says its own (`rules.keywords`).
    #[arg(long, value_enum, default_value_t = KeywordsArg::Plain)]
    pub keywords: KeywordsArg,
}

/// `robots lsp`: the editor protocol over standard input and output.
#[derive(Args)]
pub struct LspArgs {
    /// The language of program files, as for `check`: plain, or ti57 with the calculator
    /// keywords (RULES A.12). A client may say it too (`initializationOptions.keywords`).
    #[arg(long, value_enum, default_value_t = KeywordsArg::Plain)]
    pub keywords: KeywordsArg,
}

/// How `robots check` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    Text,
    Json,
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    /// Every argument and flag of every command says what it is (issue 19).
    #[test]
    fn every_argument_and_flag_is_described() {
        fn walk(command: &clap::Command, path: &str, missing: &mut Vec<String>) {
            for arg in command.get_arguments() {
                let id = arg.get_id().as_str();
                if matches!(id, "help" | "version") {
                    continue;
                }
                if arg.get_help().is_none() && arg.get_long_help().is_none() {
                    missing.push(format!("{path} {id}"));
                }
            }
            for sub in command.get_subcommands() {
                if sub.get_about().is_none() {
                    missing.push(format!("{path} {} (the command)", sub.get_name()));
                }
                walk(sub, &format!("{path} {}", sub.get_name()), missing);
            }
        }
        let mut missing = Vec::new();
        walk(&Cli::command(), "robots", &mut missing);
        assert!(
            missing.is_empty(),
            "no description:\n{}",
            missing.join("\n")
        );
    }
}

/// The ground every match of a duel, tournament or evolver run is played on.
#[derive(Args, Clone, Debug)]
pub struct GroundArgs {
    /// The board: a shipped board's name (classic, duel, melee) or a board file.
    #[arg(long, default_value = "classic")]
    pub board: String,
    /// The scenario: 1 destroy every enemy robot, 2 enter the enemy camp, 3 hit the enemy
    /// computer.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=3))]
    pub scenario: u8,
    /// Robots a side: K copies of the side's program (1 to 9).
    #[arg(long, value_name = "K", default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=9))]
    pub robots: u8,
    /// The round limit of every match: reaching it is a draw (R-A18).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub rounds: u32,
}

/// What every match of a duel or tournament shares.
#[derive(Args, Clone, Debug)]
pub struct FieldArgs {
    #[command(flatten)]
    pub ground: GroundArgs,
    /// Threads to play on [default: every core]. The results are the same for any number.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: Option<u16>,
    /// The program language: plain, or ti57 with the calculator keywords and 50 steps
    /// (RULES A.12).
    #[arg(long, value_enum, default_value_t = KeywordsArg::Plain)]
    pub keywords: KeywordsArg,
}

/// `robots duel`.
#[derive(Args)]
pub struct DuelArgs {
    /// The first program: a `.robot` file or a shipped program's name; counted from its side.
    #[arg(value_name = "A")]
    pub a: String,
    /// The second program.
    #[arg(value_name = "B")]
    pub b: String,
    #[command(flatten)]
    pub field: FieldArgs,
    /// The seed indices of each colour assignment: N (1 to N) or A..B (both included).
    #[arg(long, default_value = "1..100")]
    pub seeds: Seeds,
    /// `text`, or `json`: one object counted from A's side.
    #[arg(long, value_enum, default_value_t = DuelFormat::Text)]
    pub format: DuelFormat,
    /// Write A's worst loss (the quickest; or the match of --seed) as a replay to FILE, to
    /// watch with `robots replay` or `robots debug --replay`.
    #[arg(long, value_name = "FILE")]
    pub replay_worst: Option<std::path::PathBuf>,
    /// Write that match as a replay page to FILE, to open in a browser (docs/VIEWER.md).
    #[arg(long, value_name = "FILE")]
    pub html: Option<std::path::PathBuf>,
    /// With --replay-worst or --html: the match of this seed index, A playing green,
    /// instead of A's worst loss.
    #[arg(long, value_name = "N")]
    pub seed: Option<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DuelFormat {
    Text,
    Json,
}

/// `robots tournament`.
#[derive(Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct TournamentArgs {
    #[command(subcommand)]
    pub command: Option<TournamentCommand>,
    /// The programs: `.robot` files, shipped names, or one folder (its `.robot` files).
    #[arg(value_name = "PROGRAMS")]
    pub programs: Vec<String>,
    #[command(flatten)]
    pub field: FieldArgs,
    /// The seed indices of each pairing and colour assignment: N (1 to N) or A..B.
    #[arg(long, default_value = "20")]
    pub seeds: Seeds,
    /// How to print the standings.
    #[arg(long, value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,
    /// Play only shard I of N (the matches whose number is I modulo N) and print their raw
    /// results as JSON lines, for `robots tournament merge` (docs/SCALE.md).
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// Print a Slurm job-array script of N shards instead of playing: run it with `bash`
    /// on a submit host; it submits the array and a merge job that writes the standings
    /// (docs/SCALE.md).
    #[arg(long, value_name = "N", conflicts_with = "shard",
          value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub slurm_script: Option<u32>,
    /// With --slurm-script: the folder of the shards' parts and the standings, relative to
    /// the current folder (the jobs' working folder) unless absolute.
    #[arg(
        long,
        value_name = "DIR",
        default_value = "results",
        requires = "slurm_script"
    )]
    pub results: String,
    /// With --slurm-script: the `robots` the jobs run [default: this one's absolute path].
    #[arg(long, value_name = "PATH", requires = "slurm_script")]
    pub robots_bin: Option<String>,
}

#[derive(Subcommand)]
pub enum TournamentCommand {
    /// The standings of a sharded tournament from its parts, as the unsharded run prints them.
    Merge {
        /// The outputs of `robots tournament … --shard I/N`, every shard once.
        #[arg(value_name = "PARTS", required = true)]
        parts: Vec<PathBuf>,
        /// How to print the standings.
        #[arg(long, value_enum, default_value_t = TableFormat::Table)]
        format: TableFormat,
        /// Print the standings of the parts there are when shards are missing or cut short,
        /// and say on stderr what is missing (without it, merge refuses).
        #[arg(long)]
        partial: bool,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TableFormat {
    Table,
    Json,
    Csv,
}

pub use robots_games::battle::compare::tournament::parts::Shard;

/// `robots hill DIR [init | add PROGRAM]`.
#[derive(Args)]
pub struct HillArgs {
    /// The hill's folder: hill.yaml (the settings), programs/ (the programs on the hill),
    /// results.jsonl (every match played between them).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    #[command(subcommand)]
    pub command: Option<HillCommand>,
    /// How to print the standings.
    #[arg(long, value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,
}

#[derive(Subcommand)]
pub enum HillCommand {
    /// Create a hill in DIR with these settings (refused if DIR holds one).
    Init(HillInit),
    /// Play PROGRAM against every program on the hill, print the new standings and push off
    /// the last while the hill holds more than its size. A program of the same name is
    /// replaced. In a folder without a hill, creates one with the defaults of `init`.
    Add {
        /// The newcomer: a `.robot` file (its stem, letters, digits, `_` and `-`, names it on
        /// the hill) or a shipped program's name.
        #[arg(value_name = "PROGRAM")]
        program: String,
        /// Threads to play on [default: every core]. The hill is the same for any number.
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
        jobs: Option<u16>,
        /// How to print the standings.
        #[arg(long, value_enum, default_value_t = TableFormat::Table)]
        format: TableFormat,
    },
}

/// `robots evolve`.
#[derive(Args)]
pub struct EvolveArgs {
    /// The benchmark: `.robot` files, shipped names, or one folder (its `.robot` files)
    /// [default: the shipped programs].
    #[arg(long, value_name = "PROGRAMS|DIR", num_args = 1..)]
    pub against: Vec<String>,
    #[command(flatten)]
    pub ground: GroundArgs,
    /// Programs in each generation (4 to 1000).
    #[arg(long, value_name = "P", default_value_t = 64, value_parser = clap::value_parser!(u16).range(4..=1000))]
    pub population: u16,
    /// Generations to breed (1 to 10000).
    #[arg(long, value_name = "G", default_value_t = 80, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub generations: u32,
    /// Seed indices a generation plays against each opponent, per colour assignment (1 to 100).
    #[arg(long, value_name = "N", default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub seeds: u32,
    /// The run's seed: the same seed, the same champion.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The folder the champions are written to (created; an existing file is never
    /// overwritten).
    #[arg(long, value_name = "DIR", default_value = "evolved")]
    pub out: std::path::PathBuf,
    /// Threads to play on [default: every core]. The results are the same for any number.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: Option<u16>,
}
