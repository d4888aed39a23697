//! The owner's side of a room across servers (PostgreSQL; docs/SCALE.md, "Servers"). A
//! server owns a room while a connection of its own, the *locks' connection*
//! (`application_name` `robots-room-locks`), holds the room's advisory lock; taking the lock,
//! it adds one to the room's generation on that same connection. Its game writes only
//! through the room's guard (`store::fenced`): the generation must still be its own and
//! that connection must still hold the lock, so once the lock is gone the old owner's writes
//! change nothing, and a new owner's take waits for a write under way. When the locks'
//! connection breaks, every game it held stops at once and writes nothing more; messages
//! it had taken and not done are given back to the inbox, for the next owner.

use super::cluster::{Cluster, IN, Locks, OUT, Owned, REPLY, Remote, Wire, lock};
use crate::db::DbError;
use crate::db::dialect;
use crate::db::ids::RoomId;
use crate::rooms::live::{Asked, Channels, Command, Halt, Published};
use crate::rooms::store::{self, Fence, Owner};
use crate::worker::Bell;
use rusqlite::params;
use std::sync::atomic::Ordering;
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{oneshot, watch};

/// How the locks' connection is named to the database (`pg_stat_activity`).
pub const LOCKS_NAME: &str = "robots-room-locks";
/// How often the locks' connection is checked.
const CHECK_EVERY: Duration = Duration::from_millis(200);

/// What taking a room gives its game: who writes it, and what stops it.
#[derive(Clone, Debug)]
pub struct Claim {
    pub owner: Owner,
    pub halt: Halt,
}

/// A room owned here: its views, the number of the last shared, its fence and halt.
struct Shared {
    room: RoomId,
    views: watch::Receiver<Arc<Published>>,
    version: Mutex<i64>,
    fence: Fence,
    halt: Halt,
}

/// The locks' connection, opened with its name, and its backend's pid.
fn open_locks(url: &str) -> Result<Locks, postgres::Error> {
    let mut config: postgres::Config = url.parse()?;
    config.application_name(LOCKS_NAME);
    let mut client = config.connect(postgres::NoTls)?;
    let pid = client
        .query_one("SELECT pg_backend_pid()", &[])?
        .try_get(0)?;
    Ok(Locks { client, pid })
}

/// Takes a room's lock and, on the same connection, its next generation: `None` when another
/// session holds the lock (or the room is gone).
fn take(c: &mut postgres::Client, room: RoomId) -> Result<Option<i64>, postgres::Error> {
    let key = dialect::room_lock(room);
    let got: bool = c
        .query_one("SELECT pg_try_advisory_lock($1)", &[&key])?
        .try_get(0)?;
    if !got {
        return Ok(None);
    }
    let bumped = c.query_opt(
        "UPDATE rooms SET generation = generation + 1 WHERE id = $1 RETURNING generation",
        &[&room.get()],
    )?;
    match bumped {
        Some(row) => Ok(Some(row.try_get(0)?)),
        None => {
            c.execute("SELECT pg_advisory_unlock($1)", &[&key])?;
            Ok(None)
        }
    }
}

/// What became of a remote command handed to the room's thread.
enum Delivered {
    /// The game has ended: nothing was done.
    Gone,
    /// A join or a leave: no answer.
    Told,
    /// The answer to store, and whether it says the thing was done.
    Answered(String, bool),
}

impl Cluster {
    /// Takes the room's lock: what its game needs, when this process owns the room now.
    pub fn try_own(&self, room: RoomId) -> Option<Claim> {
        if let Some(o) = lock(&self.owned).get(&room) {
            return Some(Claim {
                owner: o.owner,
                halt: o.halt.clone(),
            });
        }
        let mut locks = lock(&self.locks);
        if locks.is_none() {
            match open_locks(&self.url) {
                Ok(c) => *locks = Some(c),
                Err(e) => {
                    tracing::error!(error = %e, "the rooms' lock connection cannot open");
                    return None;
                }
            }
        }
        let Locks { client, pid } = locks.as_mut()?;
        let session = *pid;
        match take(client, room) {
            Ok(Some(generation)) => {
                let owner = Owner {
                    generation,
                    session,
                };
                let halt = Halt::new(&self.stop);
                let owned = Owned {
                    bell: Arc::new(Bell::default()),
                    owner,
                    halt: halt.clone(),
                };
                lock(&self.owned).insert(room, owned);
                Some(Claim { owner, halt })
            }
            Ok(None) => None,
            Err(e) => {
                tracing::error!(error = %e, "a room's lock cannot be taken");
                self.lost_locks(&mut locks);
                None
            }
        }
    }

    /// Whether this process runs the room's game.
    #[cfg(test)]
    pub fn owns(&self, room: RoomId) -> bool {
        lock(&self.owned).contains_key(&room)
    }

    /// Lets the room's lock go, if this process still owns it at `generation`.
    pub(super) fn unlock(&self, room: RoomId, generation: i64) {
        let mine = {
            let mut owned = lock(&self.owned);
            let mine = owned
                .get(&room)
                .is_some_and(|o| o.owner.generation == generation);
            if mine {
                owned.remove(&room);
            }
            mine
        };
        if mine && let Some(locks) = lock(&self.locks).as_mut() {
            let _ = locks.client.execute(
                "SELECT pg_advisory_unlock($1)",
                &[&dialect::room_lock(room)],
            );
        }
    }

    /// Checks the locks' connection every `CHECK_EVERY` until the server stops.
    pub(super) fn watch_locks(&self) {
        while !self.stop.load(Ordering::Relaxed) {
            std::thread::sleep(CHECK_EVERY);
            let mut locks = lock(&self.locks);
            let broken = locks
                .as_mut()
                .is_some_and(|l| l.client.is_valid(Duration::from_secs(2)).is_err());
            if broken {
                self.lost_locks(&mut locks);
            }
        }
    }

    /// The locks' connection broke, and every lock with it: each game owned here stops (and
    /// writes nothing more); another server, or this one, takes its room again.
    fn lost_locks(&self, locks: &mut Option<Locks>) {
        *locks = None;
        let lost: Vec<(RoomId, Owned)> = lock(&self.owned).drain().collect();
        if !lost.is_empty() {
            tracing::error!(
                rooms = lost.len(),
                "the rooms' lock connection broke: their games stop here and move to the next server that takes them"
            );
        }
        for (_, owned) in lost {
            owned.halt.end();
            owned.bell.ring();
        }
    }

    /// The owner's side of a room whose game runs here: its inbox taken, its views copied
    /// to the database, its lock let go when its game ends.
    pub fn own(self: &Arc<Self>, room: RoomId, Claim { owner, halt }: Claim, game: Channels) {
        let Channels {
            commands,
            published,
        } = game;
        let bell = lock(&self.owned)
            .get(&room)
            .map(|o| Arc::clone(&o.bell))
            .unwrap_or_default();
        // The versions go on from the last one stored (a previous owner's).
        let last = self
            .db
            .read(|c| {
                c.query_opt(
                    "SELECT version FROM room_published WHERE room = ?1",
                    params![room],
                    |r| r.get::<i64>(0),
                )
            })
            .ok()
            .flatten()
            .unwrap_or(0);
        let shared = Arc::new(Shared {
            room,
            views: published,
            version: Mutex::new(last),
            fence: Fence { room, owner },
            halt,
        });
        let (inbox, mirror, views) = (Arc::clone(self), Arc::clone(self), Arc::clone(&shared));
        let _ = std::thread::Builder::new()
            .name(format!("room-in-{room}"))
            .spawn(move || inbox.take_inbox(&commands, &bell, &views));
        let _ = std::thread::Builder::new()
            .name(format!("room-out-{room}"))
            .spawn(move || mirror.mirror(&shared));
    }

    /// Writes the room's views as they stand to `room_published`, numbered, and announces
    /// them. The views are read and numbered under one lock, and a row is only replaced by a
    /// higher number: views shared late never overwrite newer ones. Guarded: an owner that
    /// lost the room shares nothing (and its game stops).
    fn share(&self, shared: &Shared) {
        let mut version = lock(&shared.version);
        let now = Arc::clone(&shared.views.borrow());
        *version += 1;
        let body = serde_json::to_string(&Wire::of(&now)).unwrap_or_default();
        let room = shared.room;
        let written = self.db.write(|c| {
            store::fenced(c, shared.fence, |c| {
                c.execute(
                    "INSERT INTO room_published (room, version, body) VALUES (?1, ?2, ?3) \
                     ON CONFLICT (room) DO UPDATE SET version = excluded.version, body = excluded.body \
                     WHERE room_published.version < excluded.version",
                    params![room, *version, body],
                )?;
                c.execute("SELECT pg_notify(?1, ?2)", params![OUT, room.to_string()])
            })
        });
        let _ = shared.halt.wrote(written, "views");
    }

    /// Copies each change of the room's views to `room_published`, until its game ends.
    fn mirror(&self, shared: &Shared) {
        let mut changes = shared.views.clone();
        while !shared.halt.ended() {
            match changes.has_changed() {
                Ok(true) => {
                    changes.mark_unchanged();
                    self.share(shared);
                }
                Ok(false) => std::thread::sleep(Duration::from_millis(5)),
                Err(_) => break,
            }
        }
        self.unlock(shared.room, shared.fence.owner.generation);
    }

    /// Hands the messages other servers' connections sent to the room's thread, and stores
    /// its answers, until its game ends. Messages are taken under the room's guard; those
    /// taken and not done when the game stops here are given back to the next owner.
    fn take_inbox(&self, commands: &Sender<Command>, bell: &Bell, views: &Shared) {
        let room = views.room;
        // Messages taken and answered two minutes ago are deleted, once a minute.
        let mut swept = Instant::now();
        while !views.halt.stopped() {
            let taken = self.db.write(|c| {
                store::fenced(c, views.fence, |c| {
                    c.query(
                        "UPDATE room_inbox SET taken = 1 WHERE room = ?1 AND taken = 0 RETURNING id, command",
                        params![room],
                        |r| Ok((r.get::<i64>(0)?, r.get::<String>(1)?)),
                    )
                })
            });
            let mut taken = match taken {
                Ok(t) => t,
                Err(DbError::Fenced) => {
                    let _ = views.halt.wrote(Err::<(), _>(DbError::Fenced), "inbox");
                    return;
                }
                Err(e) => {
                    tracing::error!(room = room.get(), error = %e, "a room's inbox cannot be read");
                    Vec::new()
                }
            };
            taken.sort_by_key(|t| t.0);
            for (k, (id, text)) in taken.iter().enumerate() {
                let Ok(remote) = serde_json::from_str::<Remote>(text) else {
                    continue;
                };
                let delivered = deliver(commands, remote);
                let done = matches!(delivered, Delivered::Answered(_, true));
                if matches!(delivered, Delivered::Gone) || (views.halt.ended() && !done) {
                    let left: Vec<i64> = taken[k..].iter().map(|t| t.0).collect();
                    self.give_back(room, &left);
                    return;
                }
                if let Delivered::Answered(answer, _) = delivered {
                    // The state the message made is shared before its answer: a client that
                    // hears its answer has that state, as on the owner's own connections.
                    self.share(views);
                    let stored = self.db.write(|c| {
                        c.execute(
                            "UPDATE room_inbox SET reply = ?2 WHERE id = ?1",
                            params![id, answer],
                        )?;
                        c.execute("SELECT pg_notify(?1, ?2)", params![REPLY, id.to_string()])
                    });
                    if let Err(e) = stored {
                        tracing::error!(room = room.get(), error = %e, "a room's answer cannot be sent");
                    }
                }
            }
            let generation = views.fence.owner.generation;
            if lock(&self.owned)
                .get(&room)
                .is_none_or(|o| o.owner.generation != generation)
            {
                return;
            }
            if swept.elapsed() > Duration::from_secs(60) {
                swept = Instant::now();
                let old = crate::db::now() - 120;
                let _ = self.db.write(|c| {
                    c.execute(
                        "DELETE FROM room_inbox WHERE room = ?1 AND taken = 1 AND created < ?2",
                        params![room, old],
                    )
                });
            }
            bell.wait(Duration::from_secs(1));
        }
    }

    /// Messages taken by a game that stopped here before doing them: back in the inbox, for
    /// the room's next owner (announced).
    fn give_back(&self, room: RoomId, ids: &[i64]) {
        let given = self.db.write(|c| {
            c.transaction(false, |tx| {
                for id in ids {
                    tx.execute(
                        "UPDATE room_inbox SET taken = 0 WHERE id = ?1 AND reply IS NULL",
                        params![id],
                    )?;
                }
                tx.execute("SELECT pg_notify(?1, ?2)", params![IN, room.to_string()])
            })
        });
        match given {
            Ok(_) if !ids.is_empty() => {
                tracing::info!(
                    room = room.get(),
                    messages = ids.len(),
                    "messages given back to the room's next owner"
                );
            }
            Ok(_) => {}
            Err(e) => {
                tracing::error!(room = room.get(), error = %e, "a room's messages cannot be given back")
            }
        }
    }
}

/// Hands a remote command to the room's thread, and waits for its answer if it has one.
fn deliver(commands: &Sender<Command>, remote: Remote) -> Delivered {
    let sent = |command| commands.send(command).is_ok();
    match remote {
        Remote::Join { account } if sent(Command::Join(account)) => Delivered::Told,
        Remote::Leave { account } if sent(Command::Leave(account)) => Delivered::Told,
        Remote::Join { .. } | Remote::Leave { .. } => Delivered::Gone,
        Remote::Act {
            account,
            name,
            message,
        } => {
            let (reply, answer) = oneshot::channel();
            if !sent(Command::Act(Asked {
                account,
                name,
                message,
                reply,
            })) {
                return Delivered::Gone;
            }
            let answer = answer
                .blocking_recv()
                .unwrap_or(Err("the room is closed".into()));
            let done = answer.is_ok();
            Delivered::Answered(serde_json::to_string(&answer).unwrap_or_default(), done)
        }
        Remote::MatchFile => {
            let (reply, answer) = oneshot::channel();
            if !sent(Command::MatchFile(reply)) {
                return Delivered::Gone;
            }
            let answer = answer.blocking_recv().unwrap_or(None);
            let done = answer.is_some();
            Delivered::Answered(serde_json::to_string(&answer).unwrap_or_default(), done)
        }
    }
}
