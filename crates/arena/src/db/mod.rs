//! The arena's database: one SQLite file in WAL mode (the default: one machine), or a
//! PostgreSQL database that several servers and workers share (`--db postgres://…`,
//! docs/SCALE.md). The schema is applied by versioned migrations, a file for each database
//! at each version (`dialect.rs`). SQLite: one writer connection and a bounded pool of
//! readers; PostgreSQL: a bounded pool of connections. Blocking: the server calls it from
//! `spawn_blocking`, workers from their own threads. Queries go through [`sql::Sql`].

pub mod dialect;
mod error;
pub mod ids;
pub mod sql;

pub use error::DbError;

use rusqlite::Connection;
use sql::{Sql, SqlResult};
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

/// The most SQLite reader connections open at once.
const MAX_READERS: usize = 8;
/// The most PostgreSQL connections a process opens.
const MAX_PG: usize = 12;

/// Where the database is: a SQLite file, or a PostgreSQL URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    File(PathBuf),
    Postgres(String),
}

impl Target {
    /// `postgres://…` or `postgresql://…` is PostgreSQL; anything else a file's path.
    pub fn parse(s: &str) -> Target {
        if s.starts_with("postgres://") || s.starts_with("postgresql://") {
            Target::Postgres(s.to_string())
        } else {
            Target::File(PathBuf::from(s))
        }
    }

    /// As shown in messages: a file's path (escaped), a URL without its password.
    pub fn shown(&self) -> String {
        match self {
            Target::File(p) => robots_games::text::escape(&p.display().to_string()).into_owned(),
            Target::Postgres(url) => {
                let (scheme, rest) = url.split_once("://").unwrap_or(("postgres", url));
                let host = rest.rsplit_once('@').map_or(rest, |(_, h)| h);
                let host = host.split(['?', '/']).next().unwrap_or("");
                robots_games::text::escape(&format!("{scheme}://{host}/…")).into_owned()
            }
        }
    }
}

/// The database, shared by the server's tasks and the workers.
pub struct Db {
    backend: Backend,
}

enum Backend {
    Lite {
        path: PathBuf,
        writer: Mutex<Connection>,
        readers: Mutex<Pool<Connection>>,
        freed: Condvar,
    },
    Pg {
        url: String,
        clients: Mutex<Pool<postgres::Client>>,
        freed: Condvar,
    },
}

struct Pool<C> {
    idle: Vec<C>,
    open: usize,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A connection with the arena's settings: WAL, foreign keys, a wait when the file is busy.
fn connect(path: &Path) -> Result<Connection, DbError> {
    let c = Connection::open(path)?;
    c.busy_timeout(std::time::Duration::from_secs(10))?;
    c.pragma_update(None, "journal_mode", "WAL")?;
    c.pragma_update(None, "synchronous", "NORMAL")?;
    c.pragma_update(None, "foreign_keys", "ON")?;
    Ok(c)
}

fn pg_connect(url: &str) -> Result<postgres::Client, DbError> {
    let mut c = postgres::Client::connect(url, postgres::NoTls)?;
    c.batch_execute("SET client_min_messages = warning")?;
    Ok(c)
}

/// Applies the migrations the file lacks, each in its own transaction, with foreign keys
/// off while a table is made again (SQLite's way to change a table) and checked before each
/// commits.
fn migrate(c: &mut Connection) -> Result<(), DbError> {
    c.pragma_update(None, "foreign_keys", "OFF")?;
    let done = apply(c);
    c.pragma_update(None, "foreign_keys", "ON")?;
    done
}

fn apply(c: &mut Connection) -> Result<(), DbError> {
    let version: i64 = c.pragma_query_value(None, "user_version", |r| r.get(0))?;
    let known = dialect::LITE_MIGRATIONS.len();
    if usize::try_from(version).map_or(true, |v| v > known) {
        return Err(DbError::Newer(version, known));
    }
    for (i, sql) in dialect::LITE_MIGRATIONS
        .iter()
        .enumerate()
        .skip(usize::try_from(version).unwrap_or(0))
    {
        let tx = c.transaction()?;
        tx.execute_batch(sql)?;
        let dangling: i64 =
            tx.query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
                r.get(0)
            })?;
        if dangling > 0 {
            return Err(DbError::Dangling(i + 1, dangling));
        }
        tx.pragma_update(
            None,
            "user_version",
            i64::try_from(i + 1).unwrap_or(i64::MAX),
        )?;
        tx.commit()?;
    }
    Ok(())
}

/// PostgreSQL's migrations, under a lock so that servers started together migrate once; the
/// version is kept in the table `schema_version`.
fn pg_migrate(c: &mut postgres::Client) -> Result<(), DbError> {
    c.batch_execute(dialect::PG_MIGRATE_LOCK)?;
    let done = pg_apply(c);
    c.batch_execute(dialect::PG_MIGRATE_UNLOCK)?;
    done
}

fn pg_apply(c: &mut postgres::Client) -> Result<(), DbError> {
    c.batch_execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")?;
    let version: i64 = c
        .query_one("SELECT coalesce(max(version), 0) FROM schema_version", &[])?
        .try_get(0)?;
    let known = dialect::PG_MIGRATIONS.len();
    if usize::try_from(version).map_or(true, |v| v > known) {
        return Err(DbError::Newer(version, known));
    }
    for (i, sql) in dialect::PG_MIGRATIONS
        .iter()
        .enumerate()
        .skip(usize::try_from(version).unwrap_or(0))
    {
        let mut tx = c.transaction()?;
        tx.batch_execute(sql)?;
        tx.execute("DELETE FROM schema_version", &[])?;
        let v = i64::try_from(i + 1).unwrap_or(i64::MAX);
        tx.execute("INSERT INTO schema_version (version) VALUES ($1)", &[&v])?;
        tx.commit()?;
    }
    Ok(())
}

impl Db {
    /// Opens (creating it when missing) and migrates the SQLite database at `path`.
    pub fn open(path: &Path) -> Result<Db, DbError> {
        let mut writer = connect(path)?;
        migrate(&mut writer)?;
        Ok(Db {
            backend: Backend::Lite {
                path: path.to_path_buf(),
                writer: Mutex::new(writer),
                readers: Mutex::new(Pool {
                    idle: Vec::new(),
                    open: 0,
                }),
                freed: Condvar::new(),
            },
        })
    }

    /// Opens the database `target` is, migrated.
    pub fn connect(target: &Target) -> Result<Db, DbError> {
        match target {
            Target::File(path) => Db::open(path),
            Target::Postgres(url) => {
                let mut c = pg_connect(url)?;
                pg_migrate(&mut c)?;
                Ok(Db {
                    backend: Backend::Pg {
                        url: url.clone(),
                        clients: Mutex::new(Pool {
                            idle: vec![c],
                            open: 1,
                        }),
                        freed: Condvar::new(),
                    },
                })
            }
        }
    }

    /// Whether the database is PostgreSQL.
    pub fn is_pg(&self) -> bool {
        matches!(self.backend, Backend::Pg { .. })
    }

    /// The PostgreSQL URL (a listener opens its own connection), if any.
    pub fn pg_url(&self) -> Option<&str> {
        match &self.backend {
            Backend::Pg { url, .. } => Some(url),
            Backend::Lite { .. } => None,
        }
    }

    /// Runs `f` where writes go: SQLite's one writer connection (callers take it briefly: a
    /// transaction each), a PostgreSQL connection of the pool.
    pub fn write<T>(&self, f: impl FnOnce(&Sql) -> SqlResult<T>) -> Result<T, DbError> {
        match &self.backend {
            Backend::Lite { writer, .. } => {
                let c = lock(writer);
                f(&Sql::Lite(&c))
            }
            Backend::Pg { .. } => self.read(f),
        }
    }

    /// Runs `f` on a connection from the pool, waiting while all are busy.
    pub fn read<T>(&self, f: impl FnOnce(&Sql) -> SqlResult<T>) -> Result<T, DbError> {
        match &self.backend {
            Backend::Lite {
                path,
                readers,
                freed,
                ..
            } => {
                let c = take(readers, freed, MAX_READERS, || connect(path))?;
                let out = f(&Sql::Lite(&c));
                give(readers, freed, c, false);
                out
            }
            Backend::Pg {
                url,
                clients,
                freed,
            } => {
                let mut c = take(clients, freed, MAX_PG, || pg_connect(url))?;
                let out = f(&Sql::Pg(RefCell::new(&mut c)));
                let broken = c.is_closed();
                give(clients, freed, c, broken);
                out
            }
        }
    }

    /// An online copy of the database to `to` (SQLite's backup API), while others write.
    pub fn backup(&self, to: &Path) -> Result<(), DbError> {
        let Backend::Lite { path, .. } = &self.backend else {
            return Err(DbError::Unsupported(
                "a PostgreSQL database is copied with pg_dump (docs/SCALE.md)",
            ));
        };
        let c = connect(path)?;
        let mut out = Connection::open(to)?;
        let backup = rusqlite::backup::Backup::new(&c, &mut out)?;
        backup.run_to_completion(256, std::time::Duration::from_millis(5), None)?;
        Ok(())
    }
}

/// Listens on PostgreSQL's `channels` until `stop`, on its own connection (opened again after
/// an error): `heard` gets each notification's channel and payload, and `None` each `tick`
/// that passes without one.
pub fn listen(
    url: &str,
    channels: &[&str],
    (stop, tick): (&std::sync::atomic::AtomicBool, std::time::Duration),
    mut heard: impl FnMut(Option<(&str, &str)>),
) {
    use postgres::fallible_iterator::FallibleIterator;
    use std::sync::atomic::Ordering;
    let sql: String = channels.iter().map(|c| format!("LISTEN {c};")).collect();
    while !stop.load(Ordering::Relaxed) {
        let listening = postgres::Client::connect(url, postgres::NoTls).and_then(|mut c| {
            c.batch_execute(&sql)?;
            Ok(c)
        });
        let mut client = match listening {
            Ok(c) => c,
            Err(e) => {
                tracing::warn!(error = %e, ?channels, "notifications cannot be heard; polling");
                std::thread::sleep(std::time::Duration::from_secs(2));
                continue;
            }
        };
        while !stop.load(Ordering::Relaxed) {
            let mut notifications = client.notifications();
            match notifications.timeout_iter(tick).next() {
                Ok(Some(n)) => heard(Some((n.channel(), n.payload()))),
                Ok(None) => heard(None),
                Err(_) => break,
            }
        }
    }
}

/// A connection from `pool`, opened when fewer than `most` are.
fn take<C>(
    pool: &Mutex<Pool<C>>,
    freed: &Condvar,
    most: usize,
    open: impl Fn() -> Result<C, DbError>,
) -> Result<C, DbError> {
    let mut p = lock(pool);
    loop {
        if let Some(c) = p.idle.pop() {
            return Ok(c);
        }
        if p.open < most {
            p.open += 1;
            drop(p);
            return open().inspect_err(|_| lock(pool).open -= 1);
        }
        p = freed.wait(p).unwrap_or_else(PoisonError::into_inner);
    }
}

/// Gives a connection back (a broken one is closed: the next asks open another).
fn give<C>(pool: &Mutex<Pool<C>>, freed: &Condvar, c: C, broken: bool) {
    let mut p = lock(pool);
    if broken {
        p.open -= 1;
    } else {
        p.idle.push(c);
    }
    drop(p);
    freed.notify_one();
}

/// The time now, in seconds since 1970 (timestamps and rate limits; nothing compared).
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_file_gets_the_schema_and_a_second_open_keeps_it() {
        let dir = std::env::temp_dir().join(format!("robots-db-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.sqlite");
        let _ = std::fs::remove_file(&path);
        let db = Db::open(&path).unwrap();
        let version: i64 = db
            .read(|c| c.query_row("PRAGMA user_version", &[], |r| r.get(0)))
            .unwrap();
        // The latest version: as many as the migrations.
        let latest = i64::try_from(dialect::LITE_MIGRATIONS.len()).unwrap();
        assert_eq!(version, latest);
        drop(db);
        let db = Db::open(&path).unwrap();
        let hills: i64 = db
            .read(|c| c.query_row("SELECT count(*) FROM hills", &[], |r| r.get(0)))
            .unwrap();
        assert_eq!(hills, 0);
        let newer = latest + 3;
        db.write(|c| c.batch(&format!("PRAGMA user_version = {newer}")))
            .unwrap();
        drop(db);
        assert!(
            matches!(Db::open(&path), Err(DbError::Newer(n, l)) if n == newer && l == dialect::LITE_MIGRATIONS.len())
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A file of version 2 with a room in it: migration 3 makes the rooms table again (for
    /// Micro rooms) and keeps the room, its seats and its decisions.
    #[test]
    fn migration_3_keeps_the_rooms_of_version_2() {
        let dir = std::env::temp_dir().join(format!("robots-db3-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.sqlite");
        let _ = std::fs::remove_file(&path);
        let c = connect(&path).unwrap();
        for (i, sql) in dialect::LITE_MIGRATIONS[..2].iter().enumerate() {
            c.execute_batch(sql).unwrap();
            c.pragma_update(None, "user_version", i64::try_from(i + 1).unwrap())
                .unwrap();
        }
        c.execute_batch(
            "INSERT INTO accounts (id, name, password, created) VALUES (1, 'a', '!', 0);
             INSERT INTO rooms (id, code, game, host, settings, seed, state, created)
                 VALUES (5, 'c0de', 'ricochet', 1, '{}', 7, 'playing', 0);
             INSERT INTO room_seats (room, colour, account) VALUES (5, '1', 1);
             INSERT INTO room_actions (room, seq, action) VALUES (5, 0, '{}');",
        )
        .unwrap();
        drop(c);
        let db = Db::open(&path).unwrap();
        let kept: (String, i64, i64) = db
            .read(|c| {
                c.query_row(
                    "SELECT r.code, (SELECT count(*) FROM room_seats WHERE room = r.id),
                        (SELECT count(*) FROM room_actions WHERE room = r.id) FROM rooms r",
                    &[],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
                )
            })
            .unwrap();
        assert_eq!(kept, ("c0de".into(), 1, 1));
        db.write(|c| {
            c.execute(
                "INSERT INTO rooms (code, game, host, settings, seed, state, created)
                     VALUES ('m', 'micro', 1, '{}', 1, 'writing', 0)",
                &[],
            )
        })
        .unwrap();
        let refused = db.write(|c| c.execute("DELETE FROM accounts WHERE id = 1", &[]));
        assert!(refused.is_err(), "foreign keys are on again");
        drop(db);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
