//! `robots serve` and `robots worker` (docs/ARENA.md, docs/SCALE.md): their flags made into
//! the arena's settings (`robots_arena::Config`, `WorkerConfig`), the administration
//! commands' files and messages, the logs on standard error; the arena itself is the
//! `robots-arena` library.

use crate::cli::args::arena_flags::{
    DbArg, ServeArgs, ServeCommand, ServeEvent, ServeHill, ServeRun, WorkerArgs,
};
use crate::cli::io::output::Failure;
use robots_arena::db::Db;
use robots_arena::{Config, WorkerConfig, admin};
use robots_games::battle::compare::tournament::hill_file::HillSettings;
use robots_games::battle::files::shipped;
use robots_games::text::escape;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The server's settings from its flags.
pub fn config(run: &ServeRun) -> Config {
    Config {
        db: run.db.target(),
        listen: run.listen,
        demo: run.demo,
        workers: run.workers,
        lease: Duration::from_secs(u64::from(run.lease)),
        queue: run.queue,
        submissions_per_hour: run.submissions_per_hour,
        challenges_per_hour: run.challenges_per_hour,
        challenge_queue: run.challenge_queue,
        auth_per_minute: run.auth_per_minute,
        secure_cookies: run.secure_cookies,
        tls: run
            .tls_cert
            .clone()
            .zip(run.tls_key.clone())
            .map(|(cert, key)| robots_arena::http::TlsFiles { cert, key }),
        head_timeout: Duration::from_secs(u64::from(run.head_timeout)),
        request_timeout: Duration::from_secs(u64::from(run.request_timeout)),
        shutdown_deadline: Duration::from_secs(u64::from(run.shutdown_deadline)),
        play: run
            .play
            .clone()
            .or_else(|| Some(std::path::PathBuf::from("web/dist")).filter(|d| d.is_dir())),
    }
}

/// Logs to standard error (`RUST_LOG` sets the level; info by default).
fn log_to_stderr() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .try_init();
}

/// `robots serve`.
pub fn run(args: ServeArgs) -> Result<(), Failure> {
    if let Some(command) = &args.command {
        return admin(command);
    }
    log_to_stderr();
    let scheme = if args.run.tls_cert.is_some() {
        "https"
    } else {
        "http"
    };
    robots_arena::serve(config(&args.run), |addr| {
        outln!("robots arena: listening on {scheme}://{addr}/");
    })?;
    Ok(())
}

/// `robots worker`: placement workers on the arena's database until SIGTERM or Ctrl-C; a
/// piece under way when stopped is given back.
pub fn worker(args: &WorkerArgs) -> Result<(), Failure> {
    log_to_stderr();
    let config = WorkerConfig {
        db: args.db.target(),
        jobs: args.jobs,
        lease: Duration::from_secs(u64::from(args.lease)),
    };
    let db = Arc::new(robots_arena::open(&config.db)?);
    let (stop, bell) = (
        Arc::new(AtomicBool::new(false)),
        Arc::new(robots_arena::worker::Bell::default()),
    );
    {
        let (stop, bell) = (Arc::clone(&stop), Arc::clone(&bell));
        ctrlc::set_handler(move || {
            stop.store(true, Ordering::Relaxed);
            bell.ring();
        })
        .map_err(|e| format!("cannot catch SIGTERM: {e}"))?;
    }
    let jobs = config.jobs.map_or_else(robots_arena::cores, usize::from);
    let prefix = robots_arena::worker::name_prefix();
    outln!(
        "robots worker {prefix}: {jobs} workers on {}",
        config.db.shown()
    );
    robots_arena::work(db, &config, &prefix, (stop, bell));
    outln!("robots worker {prefix}: stopped");
    Ok(())
}

fn open(db: &DbArg) -> Result<Db, Failure> {
    Ok(robots_arena::open(&db.target())?)
}

/// `robots serve hill …`, `robots serve admin`, `robots serve backup`.
fn admin(command: &ServeCommand) -> Result<(), Failure> {
    match command {
        ServeCommand::Hill {
            command: ServeHill::Create { name, settings, db },
        } => {
            let db = open(db)?;
            let board = settings.board.clone();
            let s = HillSettings {
                size: usize::from(settings.size),
                seeds: [*settings.seeds.0.start(), *settings.seeds.0.end()],
                board: board.clone(),
                scenario: settings.scenario,
                robots: settings.robots,
                rounds: settings.rounds,
                keywords: settings.keywords.language(),
            };
            let read = || crate::cli::io::files::read_input(Path::new(&board));
            let file = shipped::board(&board)
                .is_none()
                .then_some(&read as admin::ReadBoard);
            match admin::create_hill(&db, name, s, file)? {
                Some(h) => outln!("hill {}: created ({})", h.name, h.settings.summary()),
                None => {
                    return Err(Failure::Bad(format!(
                        "a hill is named {} already",
                        escape(name)
                    )));
                }
            }
        }
        ServeCommand::Hill {
            command: ServeHill::List { db },
        } => list_hills(&open(db)?)?,
        ServeCommand::Event { command } => event(command)?,
        ServeCommand::Admin { account, db } => {
            if !admin::make_admin(&open(db)?, account)? {
                return Err(Failure::Bad(format!(
                    "no account is named {}",
                    escape(account)
                )));
            }
            outln!("{} is an administrator", escape(account));
        }
        ServeCommand::Backup { file, db } => {
            crate::cli::io::files::writable(file, "the backup")?;
            if file.exists() {
                return Err(Failure::Bad(format!(
                    "{}: error: exists already; a backup is a new file",
                    escape(&file.display().to_string())
                )));
            }
            admin::backup(&open(db)?, file)?;
            outln!(
                "{}: a copy of {}",
                escape(&file.display().to_string()),
                db.target().shown()
            );
        }
    }
    Ok(())
}

/// `robots serve hill list`.
fn list_hills(db: &Db) -> Result<(), Failure> {
    let hills = admin::hills(db)?;
    if hills.is_empty() {
        outln!("no hills yet: robots serve hill create NAME");
    }
    for h in hills {
        outln!(
            "{}: {}; {}",
            h.name,
            robots_games::text::count(h.programs, "program"),
            h.settings.summary()
        );
    }
    Ok(())
}

/// `robots serve event create` and `robots serve event list`.
fn event(command: &ServeEvent) -> Result<(), Failure> {
    use robots_arena::events::{self, Detail};
    match command {
        ServeEvent::Create {
            hill,
            at,
            top,
            seeds,
            db,
        } => {
            let e = events::schedule_on(&open(db)?, hill, at, (*top, *seeds))
                .map_err(|e| Failure::Bad(e.to_string()))?;
            outln!(
                "event {} on hill {}: scheduled at {} UTC ({}, {})",
                e.id,
                escape(&e.hill_name),
                robots_arena::versions::date(e.at),
                e.top
                    .map_or_else(|| "every program".to_string(), |n| format!("the top {n}")),
                robots_games::text::count(e.seeds, "seed")
            );
        }
        ServeEvent::List { db } => {
            let db = open(db)?;
            let all = db.read(events::all)?;
            if all.is_empty() {
                outln!("no events yet: robots serve event create HILL --at TIME --seeds S");
            }
            for e in all {
                let v = db.read(|c| events::view(c, &e, Detail::Summary))?;
                outln!(
                    "event {} on hill {}: {} at {} UTC, {}, {}; {} of {} matches played",
                    e.id,
                    escape(&e.hill_name),
                    e.state,
                    robots_arena::versions::date(e.at),
                    e.top
                        .map_or_else(|| "every program".to_string(), |n| format!("top {n}")),
                    robots_games::text::count(e.seeds, "seed"),
                    v.played,
                    v.total
                );
            }
        }
    }
    Ok(())
}
