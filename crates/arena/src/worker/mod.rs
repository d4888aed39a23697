//! Placement workers: threads that take the queue (`queue.rs`) — in `robots serve`
//! (`--workers N`) or in `robots worker` processes on any machine sharing a PostgreSQL
//! database (docs/SCALE.md). A newcomer plays every program placed on its hill, over the
//! hill's seeds, both colours (the tournament's machinery: `tournament::play_all`, seeds from
//! the programs' names); its matches are cut into pieces, each claimed by one worker with a
//! lease, played, and stored in one transaction, each match once (a unique key). Then the
//! hill is ranked again and the last pushed off (`hill::crown`). A worker or server killed
//! mid-piece loses its lease: another worker (or the same after a restart) plays the piece.

pub mod challenge;
pub mod parsed;
pub mod queue;
pub mod tournament;

use super::db::ids::{EventId, ProgramId};
use super::db::{Db, DbError, dialect};
use super::store::{self, Program};
use queue::{Organised, Piece};
use robots_games::battle::compare::tournament::{Config, Entrant, GameResult, play_all};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;
use tournament::{config, entrant};

/// The programs a piece's games number (ids), as entrants, and the hill's configuration.
type Prepared = (Vec<ProgramId>, Arc<Vec<Entrant>>, Arc<Config>);

/// Wakes the worker when a submission is queued.
#[derive(Default)]
pub struct Bell {
    /// Rings so far: a waiter wakes when it changes (every waiter, not the first alone).
    rung: Mutex<u64>,
    cv: Condvar,
}

impl Bell {
    pub fn ring(&self) {
        *self.rung.lock().unwrap_or_else(PoisonError::into_inner) += 1;
        self.cv.notify_all();
    }

    pub fn wait(&self, timeout: Duration) {
        let rung = self.rung.lock().unwrap_or_else(PoisonError::into_inner);
        let before = *rung;
        let _ = self
            .cv
            .wait_timeout_while(rung, timeout, |r| *r == before)
            .unwrap_or_else(PoisonError::into_inner);
    }
}

/// What a worker did in one step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Did {
    Organised(Organised),
    /// A piece played: the matches newly stored.
    Played(usize),
    /// An event started (its programs taken, its pieces queued).
    Started(EventId),
    /// Nothing to do.
    Idle,
}

/// One worker: its name in the database, its lease, and the programs of the last piece it
/// played (the next piece of a placement numbers the same programs).
pub struct Worker {
    pub name: String,
    pub lease: Duration,
    field: Option<(String, Prepared)>,
}

impl Worker {
    pub fn new(name: String, lease: Duration) -> Worker {
        Worker {
            name,
            lease,
            field: None,
        }
    }

    fn lease_ms(&self) -> i64 {
        i64::try_from(self.lease.as_millis()).unwrap_or(i64::MAX)
    }

    /// One step: a job ranked or opened, else a piece played, else nothing.
    pub fn step(&mut self, db: &Db, stop: &AtomicBool) -> Result<Did, DbError> {
        if let Some(done) = db.write(queue::organise)? {
            return Ok(Did::Organised(done));
        }
        // An event starts at its time, placements waiting or not (its programs are those
        // standing then); its pieces wait behind them.
        if db.read(crate::events::queue::due)?
            && let Some(event) = db.write(crate::events::queue::start_due)?
        {
            return Ok(Did::Started(event));
        }
        let Some(piece) = db.write(|c| queue::claim(c, &self.name, self.lease_ms()))? else {
            // Challenges wait behind every placement piece, events behind challenges.
            if let Some(n) = challenge::step(db, &self.name, self.lease, stop)? {
                return Ok(Did::Played(n));
            }
            let event = crate::events::queue::step(db, &self.name, self.lease, stop)?;
            return Ok(event.map_or(Did::Idle, Did::Played));
        };
        self.play(db, &piece, stop)
    }

    /// The entrants and configuration a piece's games number.
    fn prepare(&mut self, db: &Db, piece: &Piece) -> Result<Option<Prepared>, DbError> {
        if let Some((key, (ids, entrants, config))) = &self.field
            && *key == piece.members
        {
            return Ok(Some((
                ids.clone(),
                Arc::clone(entrants),
                Arc::clone(config),
            )));
        }
        let ids: Vec<ProgramId> = serde_json::from_str(&piece.members).unwrap_or_default();
        let programs: Vec<Option<Program>> =
            db.read(|c| ids.iter().map(|&id| store::program(c, id)).collect())?;
        let Some(programs) = programs.into_iter().collect::<Option<Vec<Program>>>() else {
            return Ok(None);
        };
        let Some(first) = programs.first() else {
            return Ok(None);
        };
        let Some(hill) = db.read(|c| store::hill_by_id(c, first.hill))? else {
            return Ok(None);
        };
        let Ok(config) = config(&hill) else {
            return Ok(None);
        };
        let Some(entrants) = programs
            .iter()
            .map(|p| entrant(p, &hill))
            .collect::<Option<Vec<Entrant>>>()
        else {
            return Ok(None);
        };
        let (entrants, config) = (Arc::new(entrants), Arc::new(config));
        self.field = Some((
            piece.members.clone(),
            (ids.clone(), Arc::clone(&entrants), Arc::clone(&config)),
        ));
        Ok(Some((ids, entrants, config)))
    }

    /// Plays a claimed piece, keeping its lease, and stores its matches.
    fn play(&mut self, db: &Db, piece: &Piece, stop: &AtomicBool) -> Result<Did, DbError> {
        let Some((ids, entrants, config)) = self.prepare(db, piece)? else {
            // A program or the hill no longer loads: the piece is done with nothing stored
            // (the ranking finds what is missing).
            return Ok(Did::Played(
                db.write(|c| queue::store_piece(c, piece, &[], &[]))?,
            ));
        };
        let kept = queue::KeptLease::new(self.lease);
        let (name, lease) = (self.name.as_str(), self.lease_ms());
        let tick = || {
            kept.tick("piece", piece.id.get(), || {
                db.write(|c| queue::renew(c, piece.id, name, lease))
            });
        };
        let played = match play_all(&entrants, &config, &piece.games, stop, &tick) {
            Ok(played) => played,
            Err(e) => {
                tracing::error!(piece = piece.id.get(), error = %e, "a piece cannot be played");
                return Ok(Did::Played(
                    db.write(|c| queue::store_piece(c, piece, &[], &[]))?,
                ));
            }
        };
        if stop.load(Ordering::Relaxed) || played.iter().any(Option::is_none) {
            db.write(|c| queue::release(c, piece.id, name))?;
            return Ok(Did::Idle);
        }
        let played: Vec<GameResult> = played.into_iter().flatten().collect();
        let stored = db.write(|c| queue::store_piece(c, piece, &ids, &played))?;
        Ok(Did::Played(stored))
    }
}

/// The worker `{prefix}.{i}`'s thread: steps until `stop`, one match at a time.
fn work(db: &Db, mut worker: Worker, stop: &AtomicBool, bell: &Bell) {
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(1).build() {
        Ok(pool) => pool,
        Err(e) => {
            tracing::error!(error = %e, "a worker cannot start its thread");
            return;
        }
    };
    while !stop.load(Ordering::Relaxed) {
        match pool.install(|| worker.step(db, stop)) {
            Ok(Did::Idle) => bell.wait(Duration::from_secs(1)),
            Ok(_) => {}
            Err(e) => {
                tracing::error!(worker = %worker.name, error = %e, "the queue cannot be read; retried in 2 s");
                bell.wait(Duration::from_secs(2));
            }
        }
    }
}

/// `jobs` workers named `{prefix}.1`… on their own threads until `stop`; returns once all
/// have stopped. On PostgreSQL a thread listens for the queue's news, so that idle workers
/// of every machine start at once.
pub fn run(
    db: Arc<Db>,
    (prefix, jobs): (&str, usize),
    lease: Duration,
    stop: Arc<AtomicBool>,
    bell: Arc<Bell>,
) {
    if jobs == 0 {
        return;
    }
    let host = prefix.split('.').next().unwrap_or(prefix);
    let reclaim = |c: &crate::db::sql::Sql| {
        Ok(queue::reclaim_dead(c, host)?
            + challenge::reclaim_dead(c, host)?
            + crate::events::queue::reclaim_dead(c, host)?)
    };
    match db.write(reclaim) {
        Ok(n) if n > 0 => tracing::info!(pieces = n, "pieces of dead workers given back"),
        Ok(_) => {}
        Err(e) => tracing::warn!(error = %e, "the pieces of dead workers cannot be given back"),
    }
    std::thread::scope(|s| {
        if let Some(url) = db.pg_url() {
            let (stop, bell) = (&stop, &bell);
            // Each change of the queue another process announces rings the bell.
            s.spawn(move || {
                let every = Duration::from_millis(500);
                crate::db::listen(
                    url,
                    &[dialect::QUEUE_CHANNEL],
                    (stop, every),
                    |n: Option<(&str, &str)>| {
                        if n.is_some() {
                            bell.ring();
                        }
                    },
                );
            });
        }
        for i in 1..=jobs {
            let worker = Worker::new(format!("{prefix}.{i}"), lease);
            let (db, stop, bell) = (&db, &stop, &bell);
            s.spawn(move || work(db, worker, stop, bell));
        }
    });
}

/// A worker's name prefix: the machine's and the process's (several machines share a queue).
pub fn name_prefix() -> String {
    let host = std::fs::read_to_string("/etc/hostname")
        .ok()
        .map(|h| {
            h.trim()
                .chars()
                .filter(char::is_ascii_alphanumeric)
                .take(32)
                .collect::<String>()
        })
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "host".into());
    format!("{host}.{}", std::process::id())
}

/// Places every queued program now, on this thread (the tests; `serve` runs [`run`]).
#[cfg(test)]
pub fn drain(db: &Db) -> Result<usize, DbError> {
    let stop = AtomicBool::new(false);
    let mut worker = Worker::new("test.1".into(), Duration::from_secs(10));
    let mut placed = 0;
    for _ in 0..1_000_000 {
        match worker.step(db, &stop)? {
            Did::Idle => break,
            Did::Organised(Organised::Finished(_)) => placed += 1,
            _ => {}
        }
    }
    Ok(placed)
}
