//! The arena on the web (docs/ARENA.md), the `robots-arena` library behind `robots serve`
//! and `robots worker`: an axum server over a SQLite or PostgreSQL database (`db/`, every
//! query in `store.rs`), placement workers on their own threads (`worker/`), the JSON API
//! (`api/`), the pages (`pages.rs`, `forms.rs`, `views.rs`), live rooms (`rooms/`), every
//! route in one table with its rule (`routes.rs`), the connections and their timeouts
//! (`http.rs`), and the administration's operations (`admin.rs`). Its settings are a plain [`Config`], which the binary makes from its flags.

#![forbid(unsafe_code)]

pub mod accounts;
pub mod admin;
pub mod api;
pub mod auth;
pub mod challenges;
pub mod db;
pub mod events;
pub mod forms;
pub mod front;
pub mod http;
#[cfg(test)]
mod limit_tests;
pub mod pages;
#[cfg(test)]
mod pg_tests;
pub mod play;
pub mod replays;
pub mod rooms;
pub mod routes;
pub mod store;
#[cfg(test)]
mod tests;
pub mod versions;
pub mod views;
pub mod worker;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderValue, header};
use db::{Db, DbError, Target};
use std::net::SocketAddr;
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

/// The server's settings (`robots serve`'s flags, docs/ARENA.md).
#[derive(Clone, Debug)]
pub struct Config {
    /// The database.
    pub db: Target,
    /// Where to listen (port 0: a free port).
    pub listen: SocketAddr,
    /// Also create (once) the hill `demo` holding the shipped programs.
    pub demo: bool,
    /// Placement workers in this process; `None`: the machine's cores; 0: none.
    pub workers: Option<u16>,
    /// How long a worker holds a claimed piece without news from it.
    pub lease: Duration,
    /// The most submissions waiting for placement.
    pub queue: u32,
    /// Submissions an account may make in an hour.
    pub submissions_per_hour: u32,
    /// Challenges an account may make in an hour.
    pub challenges_per_hour: u32,
    /// The most challenge matches waiting to be played, overall.
    pub challenge_queue: u32,
    /// Sign-ups and sign-ins a client address may make in a minute.
    pub auth_per_minute: u32,
    /// Cookies marked Secure (always with `tls`).
    pub secure_cookies: bool,
    /// HTTPS served by the server itself: its certificate chain and key, PEM files.
    pub tls: Option<http::TlsFiles>,
    /// How long a client has to send a request's head (also a kept-alive connection's idle
    /// life).
    pub head_timeout: Duration,
    /// How long a request may take, from its head to its answer (then 408).
    pub request_timeout: Duration,
    /// How long a stop waits for the requests in flight before it closes the connections.
    pub shutdown_deadline: Duration,
    /// The folder of the `/play` page (`scripts/web` writes `web/dist/`); `None`: `/play`
    /// says how to build it.
    pub play: Option<std::path::PathBuf>,
}

/// A `robots worker` process's settings (docs/SCALE.md).
#[derive(Clone, Debug)]
pub struct WorkerConfig {
    /// The database.
    pub db: Target,
    /// Workers in this process; `None`: the machine's cores.
    pub jobs: Option<u16>,
    /// How long a worker holds a claimed piece without news from it.
    pub lease: Duration,
}

/// Why the server or the workers could not run.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("{shown}: error: {source}")]
    Open { shown: String, source: DbError },
    #[error("the demo hill: {0}")]
    Demo(#[from] admin::AdminError),
    #[error("cannot start the server's threads: {0}")]
    Threads(std::io::Error),
    #[error("cannot listen on {addr}: {source}")]
    Listen {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error("HTTPS: {0}")]
    Tls(#[from] http::TlsError),
}

/// Opens the database of `target`, migrated to this version's schema.
pub fn open(target: &Target) -> Result<Db, ServeError> {
    Db::connect(target).map_err(|source| ServeError::Open {
        shown: target.shown(),
        source,
    })
}

/// The settings a request's handler needs.
#[derive(Clone, Copy, Debug)]
pub struct Opts {
    pub queue: u32,
    pub per_hour: u32,
    pub secure_cookies: bool,
    pub challenges_per_hour: u32,
    pub challenge_queue: u32,
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
    /// The replays already played, kept in memory.
    pub replays: Arc<api::replays::Replays>,
    /// The rooms in play.
    pub rooms: Arc<rooms::Rooms>,
    /// The `/play` page's folder.
    pub play: Option<std::path::PathBuf>,
    /// The threads that hash passwords, as many as the cores: argon2id takes 19 MiB a hash,
    /// which the allocator keeps for the thread that asked; a few threads keep it bounded.
    pub hashing: rayon::ThreadPool,
}

impl App {
    pub fn new(db: Arc<Db>, run: &Config, bell: Arc<worker::Bell>, stop: Arc<AtomicBool>) -> App {
        App {
            rooms: Arc::new(rooms::Rooms::new(Arc::clone(&db), stop)),
            db,
            limits: auth::Limits::new(run.auth_per_minute),
            bell,
            cache: views::Cache::default(),
            opts: Opts {
                queue: run.queue,
                per_hour: run.submissions_per_hour,
                secure_cookies: run.secure_cookies || run.tls.is_some(),
                challenges_per_hour: run.challenges_per_hour,
                challenge_queue: run.challenge_queue,
                request_timeout: run.request_timeout,
            },
            heavy: tokio::sync::Semaphore::new(4),
            replays: Arc::new(api::replays::Replays::default()),
            hashing: hashing_pool(),
            play: run.play.clone(),
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
        // Kept when a route sets its own: `/play`'s adds 'wasm-unsafe-eval' (play/).
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CSP),
        ))
        .layer(header(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(header(header::X_FRAME_OPTIONS, "DENY"))
        .layer(header(header::REFERRER_POLICY, "same-origin"))
        // The fastest level: a response is compressed at each request, on the cores the
        // placements share (a kept replay is sent as it was compressed once, `replays/`).
        .layer(
            tower_http::compression::CompressionLayer::new()
                .quality(tower_http::CompressionLevel::Fastest),
        )
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
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(2, std::num::NonZero::get)
}

/// `robots worker`: placement workers on the arena's database until `stop`; a piece under
/// way when stopped is given back. `prefix` names the workers (`worker::name_prefix`).
pub fn work(
    db: Arc<Db>,
    config: &WorkerConfig,
    prefix: &str,
    (stop, bell): (Arc<AtomicBool>, Arc<worker::Bell>),
) {
    let jobs = config.jobs.map_or_else(cores, usize::from);
    worker::run(db, (prefix, jobs), config.lease, stop, bell);
}

/// `robots serve`: the server on `config`, until SIGTERM or Ctrl-C; `listening` is told the
/// address once it listens.
pub fn serve(config: Config, listening: impl FnOnce(SocketAddr)) -> Result<(), ServeError> {
    let tls = match &config.tls {
        Some(files) => Some(http::tls_acceptor(&files.cert, &files.key)?),
        None => None,
    };
    let db = Arc::new(open(&config.db)?);
    if config.demo {
        admin::demo(&db)?;
    }
    // Blocking work (the database, argon2, replays) on a bounded set of threads: each thread
    // holds its own allocator arena, so their number bounds the memory under load.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .max_blocking_threads(MAX_BLOCKING)
        .enable_all()
        .build()
        .map_err(ServeError::Threads)?;
    runtime.block_on(serve_on(config, (db, tls), listening))
}

async fn serve_on(
    run: Config,
    (db, tls): (Arc<Db>, Option<tokio_rustls::TlsAcceptor>),
    listening: impl FnOnce(SocketAddr),
) -> Result<(), ServeError> {
    let cannot_listen = |source| ServeError::Listen {
        addr: run.listen,
        source,
    };
    let listener = tokio::net::TcpListener::bind(run.listen)
        .await
        .map_err(cannot_listen)?;
    let addr = listener.local_addr().map_err(cannot_listen)?;
    listening(addr);
    let stop = Arc::new(AtomicBool::new(false));
    let bell = Arc::new(worker::Bell::default());
    let threads = run.workers.map_or_else(cores, usize::from);
    let worker = {
        let (db, stop, bell) = (Arc::clone(&db), Arc::clone(&stop), Arc::clone(&bell));
        let lease = run.lease;
        std::thread::spawn(move || {
            worker::run(db, (&worker::name_prefix(), threads), lease, stop, bell);
        })
    };
    tracing::info!(%addr, db = %run.db.shown(), postgres = db.is_pg(), workers = threads, "the arena is open");
    let app = Arc::new(App::new(db, &run, Arc::clone(&bell), Arc::clone(&stop)));
    let rooms = Arc::clone(&app.rooms);
    rooms::Rooms::keep(&rooms);
    match tokio::task::spawn_blocking(move || rooms.resume_all()).await {
        Ok(Ok(n)) if n > 0 => tracing::info!(rooms = n, "rooms in play resumed"),
        Ok(Err(e)) => tracing::error!(error = %e, "the rooms in play cannot be resumed"),
        _ => {}
    }
    let timeouts = http::Timeouts {
        head: run.head_timeout,
        shutdown: run.shutdown_deadline,
    };
    http::serve(
        listener,
        service(app),
        timeouts,
        tls,
        stopped(timeouts.shutdown),
    )
    .await;
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
