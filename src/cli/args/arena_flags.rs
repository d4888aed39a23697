//! The flags of `robots serve` (the arena's server, docs/ARENA.md) and `robots arena` (its
//! command-line client).

use crate::cli::args::shared_flags::HillInit;
use clap::{Args, Subcommand};
use std::path::PathBuf;

/// `robots serve`: the arena, or one of its administration commands.
#[derive(Args, Clone, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct ServeArgs {
    #[command(subcommand)]
    pub command: Option<ServeCommand>,
    #[command(flatten)]
    pub run: ServeRun,
}

/// The database every `serve` and `worker` command works on.
#[derive(Args, Clone, Debug)]
pub struct DbArg {
    /// The arena's database: a SQLite file, created with its schema when missing, or a
    /// PostgreSQL database that several servers and workers share,
    /// postgres://USER[:PASSWORD]@HOST:PORT/NAME (docs/SCALE.md)
    #[arg(long, value_name = "FILE|URL", default_value = "arena.sqlite")]
    pub db: String,
}

impl DbArg {
    pub fn target(&self) -> robots_arena::db::Target {
        robots_arena::db::Target::parse(&self.db)
    }
}

/// `robots serve` with no command: the server.
#[derive(Args, Clone, Debug)]
pub struct ServeRun {
    #[command(flatten)]
    pub db: DbArg,
    /// Where to listen (port 0: a free port, printed).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
    pub listen: std::net::SocketAddr,
    /// Also create (once) a hill named `demo` holding the shipped programs.
    #[arg(long)]
    pub demo: bool,
    /// Placement workers in this process, each playing one match at a time [default: the
    /// machine's cores]; 0 leaves the placements to `robots worker` processes.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(0..=256))]
    pub workers: Option<u16>,
    /// Seconds a worker holds a claimed piece of a placement without news from it: a worker
    /// that dies holds its piece this long before another plays it.
    #[arg(long, value_name = "SECONDS", default_value_t = 10, value_parser = clap::value_parser!(u16).range(1..=3600))]
    pub lease: u16,
    /// The most submissions waiting for placement; past it a submission is refused (503).
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub queue: u32,
    /// Submissions an account may make in an hour.
    #[arg(long, value_name = "N", default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub submissions_per_hour: u32,
    /// Challenges an account may make in an hour (docs/ARENA.md, "Challenges").
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub challenges_per_hour: u32,
    /// The most challenge matches waiting to be played, overall; past it a challenge is
    /// refused (429).
    #[arg(long, value_name = "N", default_value_t = 2000, value_parser = clap::value_parser!(u32).range(40..=1_000_000))]
    pub challenge_queue: u32,
    /// Sign-ups and sign-ins a client address may make in a minute.
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub auth_per_minute: u32,
    /// Mark the cookies Secure (when an HTTPS proxy stands in front of the server; always
    /// with --tls-cert).
    #[arg(long)]
    pub secure_cookies: bool,
    /// Serve HTTPS: the server's certificate chain, a PEM file (with --tls-key).
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// The private key of --tls-cert, a PEM file (PKCS#8, PKCS#1 or SEC1).
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// Seconds a client has to send a request's head, from its first byte or, on a kept-alive
    /// connection, from the previous answer; past it the connection is closed.
    #[arg(long, value_name = "SECONDS", default_value_t = 10, value_parser = clap::value_parser!(u16).range(1..=3600))]
    pub head_timeout: u16,
    /// Seconds a request may take, from its head to its answer; past it the answer is 408.
    #[arg(long, value_name = "SECONDS", default_value_t = 30, value_parser = clap::value_parser!(u16).range(1..=3600))]
    pub request_timeout: u16,
    /// Seconds a stop (SIGTERM, Ctrl-C) waits for the requests in flight before it closes
    /// the connections still open.
    #[arg(long, value_name = "SECONDS", default_value_t = 10, value_parser = clap::value_parser!(u16).range(0..=3600))]
    pub shutdown_deadline: u16,
    /// The folder of the page served at /play, which `scripts/web` writes [default:
    /// web/dist when it exists; without it /play says how to build it].
    #[arg(long, value_name = "DIR")]
    pub play: Option<PathBuf>,
}

#[derive(Subcommand, Clone, Debug)]
pub enum ServeCommand {
    /// The arena's hills: create one, or list them.
    Hill {
        #[command(subcommand)]
        command: ServeHill,
    },
    /// The arena's events: schedule a round robin among a hill's top programs, or list them
    /// (docs/ARENA.md, "Events").
    Event {
        #[command(subcommand)]
        command: ServeEvent,
    },
    /// Make an account an administrator (it may create hills and withdraw any program).
    Admin {
        /// The account's name.
        account: String,
        #[command(flatten)]
        db: DbArg,
    },
    /// Copy the database, while the server runs, to FILE (SQLite's online backup).
    Backup {
        /// The copy (must not exist).
        file: PathBuf,
        #[command(flatten)]
        db: DbArg,
    },
}

#[derive(Subcommand, Clone, Debug)]
pub enum ServeHill {
    /// Create a hill with its settings, fixed for its life.
    Create {
        /// The hill's name: 1 to 64 ASCII letters, digits, `_` and `-`.
        name: String,
        #[command(flatten)]
        settings: HillInit,
        #[command(flatten)]
        db: DbArg,
    },
    /// The hills, their settings and how many programs they hold.
    List {
        #[command(flatten)]
        db: DbArg,
    },
}

#[derive(Subcommand, Clone, Debug)]
pub enum ServeEvent {
    /// Schedule an event: at its time the hill's top N programs (or all) play a round robin
    /// over seeds 1 to S, each pairing both ways, on the workers; unranked.
    Create {
        /// The hill.
        hill: String,
        /// When it starts: RFC 3339 in UTC (2030-01-31T18:00:00Z), or `now`.
        #[arg(long, value_name = "TIME")]
        at: String,
        /// The hill's top N at that time [default: every program placed].
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(2..=1000))]
        top: Option<u32>,
        /// Seeds, each pairing played with both colours on each.
        #[arg(long, value_name = "S", value_parser = clap::value_parser!(u32).range(1..=100))]
        seeds: u32,
        #[command(flatten)]
        db: DbArg,
    },
    /// The events, newest first: their hill, time, state and progress.
    List {
        #[command(flatten)]
        db: DbArg,
    },
}

/// `robots worker`: placement workers for an arena's database (docs/SCALE.md).
#[derive(Args, Clone, Debug)]
pub struct WorkerArgs {
    #[command(flatten)]
    pub db: DbArg,
    /// Workers in this process, each playing one match at a time [default: the machine's
    /// cores].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: Option<u16>,
    /// Seconds a worker holds a claimed piece of a placement without news from it.
    #[arg(long, value_name = "SECONDS", default_value_t = 10, value_parser = clap::value_parser!(u16).range(1..=3600))]
    pub lease: u16,
}

/// `robots arena`: the client of an arena's API.
#[derive(Args, Clone, Debug)]
pub struct ArenaArgs {
    #[command(subcommand)]
    pub command: ArenaCommand,
}

#[derive(Subcommand, Clone, Debug)]
pub enum ArenaCommand {
    /// Submit a program to a hill and wait for its placement. The token comes from
    /// ROBOTS_TOKEN, else the file ~/.config/robots/token.
    Submit {
        /// The arena, e.g. https://arena.example.org (plain http:// only to this machine,
        /// unless --insecure-http).
        #[arg(long, value_name = "URL")]
        server: String,
        /// The hill.
        #[arg(long)]
        hill: String,
        /// The program's name on the hill [default: the file's stem].
        #[arg(long)]
        name: Option<String>,
        /// Return once the server has queued it, without waiting for the placement.
        #[arg(long)]
        no_wait: bool,
        /// The program (.robot).
        file: PathBuf,
        /// Trust the certificates of this PEM file (a private CA) instead of the system's.
        #[arg(long, value_name = "FILE")]
        ca: Option<PathBuf>,
        /// Allow plain http:// to a host other than this machine (the token and the program
        /// cross the network unencrypted).
        #[arg(long)]
        insecure_http: bool,
    },
    /// Challenge a program of a hill, or a shipped one, unranked: one's program on the hill
    /// (`--program ID`) or a file not submitted (`--hill HILL FILE`), over a few seeds both
    /// ways; waits for the results (docs/ARENA.md, "Challenges").
    Challenge(ChallengeArgs),
}

/// `robots arena challenge`'s flags.
#[derive(Args, Clone, Debug)]
pub struct ChallengeArgs {
    /// The arena, e.g. https://arena.example.org (plain http:// only to this machine,
    /// unless --insecure-http).
    #[arg(long, value_name = "URL")]
    pub server: String,
    /// One's program on a hill, by id (its hill is the challenge's).
    #[arg(long, value_name = "ID", conflicts_with_all = ["hill", "file", "name"], required_unless_present = "file")]
    pub program: Option<i64>,
    /// The hill, for a file.
    #[arg(long, requires = "file")]
    pub hill: Option<String>,
    /// The file's program's name [default: the file's stem].
    #[arg(long)]
    pub name: Option<String>,
    /// The opponent: a program placed on the hill, by id.
    #[arg(
        long,
        value_name = "ID",
        conflicts_with = "shipped",
        required_unless_present = "shipped"
    )]
    pub opponent: Option<i64>,
    /// The opponent: a shipped program, by name (a file of programs/ without `.robot`).
    #[arg(long, value_name = "NAME")]
    pub shipped: Option<String>,
    /// Seeds, each played with both colours.
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub seeds: u32,
    /// Return once the server has queued it, without waiting for the results.
    #[arg(long)]
    pub no_wait: bool,
    /// A program (.robot) not submitted, checked as a submission is; needs `--hill`.
    #[arg(requires = "hill")]
    pub file: Option<PathBuf>,
    /// Trust the certificates of this PEM file (a private CA) instead of the system's.
    #[arg(long, value_name = "FILE")]
    pub ca: Option<PathBuf>,
    /// Allow plain http:// to a host other than this machine (the token and the program
    /// cross the network unencrypted).
    #[arg(long)]
    pub insecure_http: bool,
}
