//! The arena's database: one SQLite file in WAL mode, its schema applied by versioned
//! migrations (`migrations/`, counted by `PRAGMA user_version`), one writer connection and a
//! bounded pool of readers. Blocking: the server calls it from `spawn_blocking`, the
//! placement worker from its own thread.

use rusqlite::Connection;
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

/// The migrations, in order: migration i brings the schema to version i + 1.
const MIGRATIONS: [&str; 3] = [
    include_str!("migrations/0001_init.sql"),
    include_str!("migrations/0002_rooms.sql"),
    include_str!("migrations/0003_micro_rooms.sql"),
];

/// The most reader connections open at once.
const MAX_READERS: usize = 8;

#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("{0}")]
    Sql(#[from] rusqlite::Error),
    #[error("the database's schema is version {0}, newer than this robots knows ({1})")]
    Newer(i64, usize),
    #[error("migration {0} leaves {1} rows whose references lead nowhere")]
    Dangling(usize, i64),
}

/// The database, shared by the server's tasks and the placement worker.
pub struct Db {
    path: PathBuf,
    writer: Mutex<Connection>,
    readers: Mutex<Readers>,
    freed: Condvar,
}

struct Readers {
    idle: Vec<Connection>,
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
    let known = MIGRATIONS.len();
    if usize::try_from(version).map_or(true, |v| v > known) {
        return Err(DbError::Newer(version, known));
    }
    for (i, sql) in MIGRATIONS
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

impl Db {
    /// Opens (creating it when missing) and migrates the database at `path`.
    pub fn open(path: &Path) -> Result<Db, DbError> {
        let mut writer = connect(path)?;
        migrate(&mut writer)?;
        Ok(Db {
            path: path.to_path_buf(),
            writer: Mutex::new(writer),
            readers: Mutex::new(Readers {
                idle: Vec::new(),
                open: 0,
            }),
            freed: Condvar::new(),
        })
    }

    /// Runs `f` on the one writer connection (callers take it briefly: a transaction each).
    pub fn write<T>(
        &self,
        f: impl FnOnce(&mut Connection) -> rusqlite::Result<T>,
    ) -> Result<T, DbError> {
        let mut c = lock(&self.writer);
        Ok(f(&mut c)?)
    }

    /// Runs `f` on a reader connection from the pool, waiting while all are busy.
    pub fn read<T>(
        &self,
        f: impl FnOnce(&Connection) -> rusqlite::Result<T>,
    ) -> Result<T, DbError> {
        let c = {
            let mut pool = lock(&self.readers);
            loop {
                if let Some(c) = pool.idle.pop() {
                    break c;
                }
                if pool.open < MAX_READERS {
                    pool.open += 1;
                    drop(pool);
                    match connect(&self.path) {
                        Ok(c) => break c,
                        Err(e) => {
                            lock(&self.readers).open -= 1;
                            return Err(e);
                        }
                    }
                }
                pool = self
                    .freed
                    .wait(pool)
                    .unwrap_or_else(PoisonError::into_inner);
            }
        };
        let out = f(&c);
        lock(&self.readers).idle.push(c);
        self.freed.notify_one();
        Ok(out?)
    }

    /// An online copy of the database to `to` (SQLite's backup API), while others write.
    pub fn backup(&self, to: &Path) -> Result<(), DbError> {
        let c = connect(&self.path)?;
        let mut out = Connection::open(to)?;
        let backup = rusqlite::backup::Backup::new(&c, &mut out)?;
        backup.run_to_completion(256, std::time::Duration::from_millis(5), None)?;
        Ok(())
    }
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
            .read(|c| c.pragma_query_value(None, "user_version", |r| r.get(0)))
            .unwrap();
        assert_eq!(version, 3);
        drop(db);
        let db = Db::open(&path).unwrap();
        let hills: i64 = db
            .read(|c| c.query_row("SELECT count(*) FROM hills", [], |r| r.get(0)))
            .unwrap();
        assert_eq!(hills, 0);
        db.write(|c| c.pragma_update(None, "user_version", 9))
            .unwrap();
        drop(db);
        assert!(matches!(Db::open(&path), Err(DbError::Newer(9, 3))));
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
        for (i, sql) in MIGRATIONS[..2].iter().enumerate() {
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
                    [],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
                )
            })
            .unwrap();
        assert_eq!(kept, ("c0de".into(), 1, 1));
        db.write(|c| {
            c.execute(
                "INSERT INTO rooms (code, game, host, settings, seed, state, created)
                     VALUES ('m', 'micro', 1, '{}', 1, 'writing', 0)",
                [],
            )
        })
        .unwrap();
        let refused = db.write(|c| c.execute("DELETE FROM accounts WHERE id = 1", []));
        assert!(refused.is_err(), "foreign keys are on again");
        drop(db);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
