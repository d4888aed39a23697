//! `robots serve` (docs/ARENA.md): the arena on the web. An axum server over one SQLite
//! database (`db.rs`, `store.rs`), a placement worker on its own threads (`worker.rs`), the
//! JSON API (`api.rs`) and the pages (`pages.rs`, `forms.rs`), every route in one table
//! with its rule (`routes.rs`), the connections and their timeouts (`http.rs`); the
//! administration commands (`admin.rs`).

pub mod admin;
pub mod api;
pub mod auth;
pub mod db;
pub mod forms;
pub mod http;
#[cfg(test)]
mod limit_tests;
pub mod pages;
#[cfg(test)]
mod pg_tests;
pub mod rooms;
pub mod routes;
pub mod store;
#[cfg(test)]
mod tests;
pub mod views;
pub mod worker;

use crate::cli::args::arena_flags::{ServeArgs, ServeRun, WorkerArgs};
use crate::cli::io::output::Failure;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderValue, header};
use db::Db;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tower_http::set_header::SetResponseHeaderLayer;

/// The largest request body taken (a program is at most 64 KiB; JSON escapes may double it).
pub const MAX_BODY: usize = 256 * 1024;
/// Threads for blocking work.
pub const MAX_BLOCKING: usize = 16;
/// The Content-Security-Policy of every response: no inline script, nothing from elsewhere.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/// The settings a request's handler needs.
#[derive(Clone, Copy, Debug)]
pub struct Opts {
    pub queue: u32,
    pub per_hour: u32,
    pub secure_cookies: bool,
    /// How long a request may take, from its head to its answer's head (`--request-timeout`).
    pub request_timeout: Duration,
}

/// What every handler shares.
pub struct App {
    pub db: Arc<Db>,
    pub limits: auth::Limits,
    pub bell: Arc<worker::Bell>,
    pub cache: views::Cache,
    pub opts: Opts,
    /// Replays played at once (each plays a whole match).
    pub heavy: tokio::sync::Semaphore,
    /// The rooms in play.
    pub rooms: Arc<rooms::Rooms>,
    /// The threads that hash passwords, as many as the cores: argon2id takes 19 MiB a hash,
    /// which the allocator keeps for the thread that asked; a few threads keep it bounded.
    pub hashing: rayon::ThreadPool,
}

impl App {
    pub fn new(db: Arc<Db>, run: &ServeRun, bell: Arc<worker::Bell>, stop: Arc<AtomicBool>) -> App {
        App {
            rooms: Arc::new(rooms::Rooms::new(Arc::clone(&db), stop)),
            db,
            limits: auth::Limits::new(run.auth_per_minute),
            bell,
            cache: views::Cache::default(),
            opts: Opts {
                queue: run.queue,
                per_hour: run.submissions_per_hour,
                secure_cookies: run.secure_cookies,
                request_timeout: Duration::from_secs(u64::from(run.request_timeout)),
            },
            heavy: tokio::sync::Semaphore::new(4),
            hashing: hashing_pool(),
        }
    }
}

fn hashing_pool() -> rayon::ThreadPool {
    let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
    rayon::ThreadPoolBuilder::new()
        .num_threads(cores)
        .thread_name(|i| format!("hash-{i}"))
        .build()
        .or_else(|_| rayon::ThreadPoolBuilder::new().num_threads(1).build())
        .unwrap_or_else(|_| std::process::abort())
}

/// The whole service: the routes, the limits and the headers of every response (the
/// limits' refusals, 413 and 408, within the headers).
pub fn service(app: Arc<App>) -> Router {
    let header =
        |name, value| SetResponseHeaderLayer::overriding(name, HeaderValue::from_static(value));
    let timeout = app.opts.request_timeout;
    routes::router(app)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(timeout, http::limits))
        .layer(axum::middleware::from_fn(http::private_answers))
        .layer(header(header::CONTENT_SECURITY_POLICY, CSP))
        .layer(header(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(header(header::X_FRAME_OPTIONS, "DENY"))
        .layer(header(header::REFERRER_POLICY, "same-origin"))
        .layer(tower_http::compression::CompressionLayer::new())
        .layer(tower_http::trace::TraceLayer::new_for_http())
        .layer(
            tower_http::sensitive_headers::SetSensitiveHeadersLayer::new([
                header::AUTHORIZATION,
                header::COOKIE,
                header::SET_COOKIE,
            ]),
        )
}

/// The machine's cores (workers by default).
fn cores() -> usize {
    std::thread::available_parallelism().map_or(2, std::num::NonZero::get)
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

/// `robots worker`: placement workers on the arena's database until SIGTERM or Ctrl-C; a
/// piece under way when stopped is given back.
pub fn worker(args: &WorkerArgs) -> Result<(), Failure> {
    log_to_stderr();
    let target = args.db.target();
    let db = Db::connect(&target).map_err(|e| format!("{}: error: {e}", target.shown()))?;
    let (db, stop, bell) = (
        Arc::new(db),
        Arc::new(AtomicBool::new(false)),
        Arc::new(worker::Bell::default()),
    );
    {
        let (stop, bell) = (Arc::clone(&stop), Arc::clone(&bell));
        ctrlc::set_handler(move || {
            stop.store(true, Ordering::Relaxed);
            bell.ring();
        })
        .map_err(|e| format!("cannot catch SIGTERM: {e}"))?;
    }
    let jobs = args.jobs.map_or_else(cores, usize::from);
    let prefix = worker::name_prefix();
    outln!(
        "robots worker {prefix}: {jobs} workers on {}",
        target.shown()
    );
    worker::run(
        db,
        (&prefix, jobs),
        Duration::from_secs(u64::from(args.lease)),
        stop,
        bell,
    );
    outln!("robots worker {prefix}: stopped");
    Ok(())
}

/// `robots serve`.
pub fn run(args: ServeArgs) -> Result<(), Failure> {
    if let Some(command) = &args.command {
        return admin::run(command);
    }
    let run = args.run;
    log_to_stderr();
    let target = run.db.target();
    let db = Db::connect(&target).map_err(|e| format!("{}: error: {e}", target.shown()))?;
    let db = Arc::new(db);
    if run.demo {
        admin::demo(&db).map_err(|e| format!("the demo hill: {e}"))?;
    }
    // Blocking work (the database, argon2, replays) on a bounded set of threads: each thread
    // holds its own allocator arena, so their number bounds the memory under load.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .max_blocking_threads(MAX_BLOCKING)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server's threads: {e}"))?;
    runtime.block_on(serve(run, db))
}

async fn serve(run: ServeRun, db: Arc<Db>) -> Result<(), Failure> {
    let listener = tokio::net::TcpListener::bind(run.listen)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", run.listen))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("cannot listen on {}: {e}", run.listen))?;
    outln!("robots arena: listening on http://{addr}/");
    let stop = Arc::new(AtomicBool::new(false));
    let bell = Arc::new(worker::Bell::default());
    let threads = run.workers.map_or_else(cores, usize::from);
    let worker = {
        let (db, stop, bell) = (Arc::clone(&db), Arc::clone(&stop), Arc::clone(&bell));
        let lease = Duration::from_secs(u64::from(run.lease));
        std::thread::spawn(move || {
            worker::run(db, (&worker::name_prefix(), threads), lease, stop, bell);
        })
    };
    tracing::info!(%addr, db = %run.db.target().shown(), postgres = db.is_pg(), workers = threads, "the arena is open");
    let app = Arc::new(App::new(db, &run, Arc::clone(&bell), Arc::clone(&stop)));
    let rooms = Arc::clone(&app.rooms);
    rooms::Rooms::keep(&rooms);
    match tokio::task::spawn_blocking(move || rooms.resume_all()).await {
        Ok(Ok(n)) if n > 0 => tracing::info!(rooms = n, "rooms in play resumed"),
        Ok(Err(e)) => tracing::error!(error = %e, "the rooms in play cannot be resumed"),
        _ => {}
    }
    let timeouts = http::Timeouts {
        head: Duration::from_secs(u64::from(run.head_timeout)),
        shutdown: Duration::from_secs(u64::from(run.shutdown_deadline)),
    };
    http::serve(listener, service(app), timeouts, stopped(timeouts.shutdown)).await;
    stop.store(true, Ordering::Relaxed);
    bell.ring();
    let _ = worker.join();
    tracing::info!("the arena is closed; a placement in progress resumes at the next start");
    Ok(())
}

/// SIGTERM or Ctrl-C.
async fn stopped(deadline: Duration) {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
    tracing::info!(
        deadline_seconds = deadline.as_secs(),
        "stopping: requests in flight are answered first, until the deadline"
    );
}
