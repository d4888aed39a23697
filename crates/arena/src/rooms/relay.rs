//! Rooms across servers (PostgreSQL; docs/SCALE.md). A room's game runs in one process, its
//! *owner*: the one holding the room's advisory lock, taken on a connection of its own so
//! that the lock goes when the process dies. A connection that reaches another server is
//! served there by a *relay*: its messages go through the table `room_inbox` (NOTIFY
//! `robots_room_in`), the owner answers in the same row (`robots_room_reply`), and it
//! publishes each change of its views in `room_published` (`robots_room_out`). A relay whose
//! owner is gone takes the lock and becomes the owner: the game is played again from the
//! database, as after a restart. What a relay is sent is what the owner's connections are:
//! each player's own view, nothing else (the views travel through the database, which only
//! the servers reach).

use super::actor::{Command, Message, Published};
use crate::db::Db;
use crate::db::sql::SqlResult;
use crate::worker::Bell;
use rusqlite::params;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};
use tokio::sync::{oneshot, watch};

const IN: &str = "robots_room_in";
const OUT: &str = "robots_room_out";
const REPLY: &str = "robots_room_reply";
/// Rooms' advisory locks are this plus the room's id (apart from the queue's locks).
const LOCK_BASE: i64 = 1 << 40;
/// How long a relay waits for the owner's answer.
const ANSWER_WITHIN: Duration = Duration::from_secs(20);

/// A command as it travels to the owner.
#[derive(Serialize, Deserialize)]
#[serde(tag = "command", rename_all = "lowercase")]
enum Remote {
    Join {
        account: i64,
    },
    Leave {
        account: i64,
    },
    Act {
        account: i64,
        name: String,
        message: Message,
    },
    MatchFile,
}

/// A game started here: how to reach its thread, and what it shows.
pub type Game = (Sender<Command>, watch::Receiver<Arc<Published>>);

/// What the owner published, as it travels.
#[derive(Serialize, Deserialize)]
struct Wire {
    seated: Vec<Option<i64>>,
    colours: Vec<String>,
    connections: usize,
    views: Vec<String>,
    spectator: String,
    playing: bool,
}

/// The seat names a room has (its published colours are `&'static str`).
fn known_colour(name: &str) -> &'static str {
    const NAMES: [&str; 10] = [
        "green", "violet", "red", "blue", "yellow", "orange", "1", "2", "3", "4",
    ];
    NAMES.iter().find(|n| **n == name).copied().unwrap_or("?")
}

fn to_wire(p: &Published) -> Wire {
    Wire {
        seated: p.seated.clone(),
        colours: p.colours.iter().map(|c| (*c).to_string()).collect(),
        connections: p.connections,
        views: p.views.iter().map(|v| v.to_string()).collect(),
        spectator: p.spectator.to_string(),
        playing: p.playing,
    }
}

fn from_wire(w: Wire) -> Published {
    Published {
        seated: w.seated,
        colours: w.colours.iter().map(|c| known_colour(c)).collect(),
        connections: w.connections,
        views: w.views.into_iter().map(Arc::from).collect(),
        spectator: Arc::from(w.spectator),
        playing: w.playing,
    }
}

/// A relayed room: where its views go, and the number of the last sent.
type Relayed = (watch::Sender<Arc<Published>>, i64);

/// A room owned here: its views, and the number of the last shared.
struct Shared {
    room: i64,
    views: watch::Receiver<Arc<Published>>,
    version: Mutex<i64>,
}

/// An answer a relay waits for: where it goes, since when, for which room.
enum Pending {
    Act(oneshot::Sender<Result<Option<Value>, String>>, Instant, i64),
    File(oneshot::Sender<Option<String>>, Instant, i64),
}

/// This process's part in the rooms of every server.
pub struct Cluster {
    db: Arc<Db>,
    url: String,
    stop: Arc<AtomicBool>,
    /// The connection holding the locks of the rooms this process owns.
    locks: Mutex<Option<postgres::Client>>,
    owned: Mutex<HashMap<i64, Arc<Bell>>>,
    /// The rooms relayed here: where their views go, and the version last sent.
    relayed: Mutex<HashMap<i64, Relayed>>,
    pending: Mutex<HashMap<i64, Pending>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Cluster {
    /// The process's part, its listener started.
    pub fn start(db: Arc<Db>, url: &str, stop: Arc<AtomicBool>) -> Arc<Cluster> {
        let cluster = Arc::new(Cluster {
            db,
            url: url.to_string(),
            stop,
            locks: Mutex::new(None),
            owned: Mutex::new(HashMap::new()),
            relayed: Mutex::new(HashMap::new()),
            pending: Mutex::new(HashMap::new()),
        });
        let listener = Arc::clone(&cluster);
        let _ = std::thread::Builder::new()
            .name("rooms-listen".into())
            .spawn(move || listener.listen());
        cluster
    }

    /// Takes the room's lock: `true` when this process owns the room now.
    pub fn try_own(&self, room: i64) -> bool {
        if lock(&self.owned).contains_key(&room) {
            return true;
        }
        let mut locks = lock(&self.locks);
        if locks.as_ref().is_none_or(postgres::Client::is_closed) {
            match postgres::Client::connect(&self.url, postgres::NoTls) {
                Ok(c) => *locks = Some(c),
                Err(e) => {
                    tracing::error!(error = %e, "the rooms' lock connection cannot open");
                    return false;
                }
            }
        }
        let Some(c) = locks.as_mut() else {
            return false;
        };
        let got = c
            .query_one("SELECT pg_try_advisory_lock($1)", &[&(LOCK_BASE + room)])
            .and_then(|r| r.try_get::<_, bool>(0));
        match got {
            Ok(true) => {
                lock(&self.owned).insert(room, Arc::new(Bell::default()));
                true
            }
            Ok(false) => false,
            Err(e) => {
                tracing::error!(error = %e, "a room's lock cannot be taken");
                false
            }
        }
    }

    /// Whether this process runs the room's game.
    #[cfg(test)]
    pub fn owns(&self, room: i64) -> bool {
        lock(&self.owned).contains_key(&room)
    }

    fn unlock(&self, room: i64) {
        lock(&self.owned).remove(&room);
        if let Some(c) = lock(&self.locks).as_mut() {
            let _ = c.execute("SELECT pg_advisory_unlock($1)", &[&(LOCK_BASE + room)]);
        }
    }

    /// The owner's side of a room whose game runs here: its inbox taken, its views copied
    /// to the database, its lock let go when its game ends.
    pub fn own(
        self: &Arc<Self>,
        room: i64,
        commands: Sender<Command>,
        published: watch::Receiver<Arc<Published>>,
    ) {
        let bell = lock(&self.owned).get(&room).cloned().unwrap_or_default();
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
        });
        let (inbox, mirror, views) = (Arc::clone(self), Arc::clone(self), Arc::clone(&shared));
        let _ = std::thread::Builder::new()
            .name(format!("room-in-{room}"))
            .spawn(move || inbox.take_inbox(room, &commands, &bell, &views));
        let _ = std::thread::Builder::new()
            .name(format!("room-out-{room}"))
            .spawn(move || mirror.mirror(&shared));
    }

    /// Writes the room's views as they stand to `room_published`, numbered, and announces
    /// them. The views are read and numbered under one lock, and a row is only replaced by a
    /// higher number: views shared late never overwrite newer ones.
    fn share(&self, shared: &Shared) {
        let mut version = lock(&shared.version);
        let now = Arc::clone(&shared.views.borrow());
        *version += 1;
        let body = serde_json::to_string(&to_wire(&now)).unwrap_or_default();
        let room = shared.room;
        let written = self.db.write(|c| {
            c.execute(
                "INSERT INTO room_published (room, version, body) VALUES (?1, ?2, ?3) \
                 ON CONFLICT (room) DO UPDATE SET version = excluded.version, body = excluded.body \
                 WHERE room_published.version < excluded.version",
                params![room, *version, body],
            )?;
            c.execute("SELECT pg_notify(?1, ?2)", params![OUT, room.to_string()])
        });
        if let Err(e) = written {
            tracing::error!(room, error = %e, "a room's views cannot be shared");
        }
    }

    /// Copies each change of the room's views to `room_published`, until its game ends.
    fn mirror(&self, shared: &Shared) {
        let mut changes = shared.views.clone();
        loop {
            match changes.has_changed() {
                Ok(true) => {
                    changes.mark_unchanged();
                    self.share(shared);
                }
                Ok(false) => std::thread::sleep(Duration::from_millis(5)),
                Err(_) => break,
            }
        }
        self.unlock(shared.room);
    }

    /// Hands the messages other servers' connections sent to the room's thread, and stores
    /// its answers, until its game ends.
    fn take_inbox(&self, room: i64, commands: &Sender<Command>, bell: &Bell, views: &Shared) {
        // Messages taken and answered two minutes ago are deleted, once a minute.
        let mut swept = Instant::now();
        while !self.stop.load(Ordering::Relaxed) {
            let taken = self.db.write(|c| {
                c.query(
                    "UPDATE room_inbox SET taken = 1 WHERE room = ?1 AND taken = 0 RETURNING id, command",
                    params![room],
                    |r| Ok((r.get::<i64>(0)?, r.get::<String>(1)?)),
                )
            });
            let mut taken = match taken {
                Ok(t) => t,
                Err(e) => {
                    tracing::error!(room, error = %e, "a room's inbox cannot be read");
                    Vec::new()
                }
            };
            taken.sort_by_key(|t| t.0);
            for (id, text) in taken {
                let Ok(remote) = serde_json::from_str::<Remote>(&text) else {
                    continue;
                };
                let Some(answer) = deliver(commands, remote) else {
                    return;
                };
                if let Some(answer) = answer {
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
                        tracing::error!(room, error = %e, "a room's answer cannot be sent");
                    }
                }
            }
            if !lock(&self.owned).contains_key(&room) {
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

    /// A relay for a room another process owns: a handle's two ends, served by a thread that
    /// takes the room over when its owner goes.
    pub fn relay(
        self: &Arc<Self>,
        room: i64,
        take_over: impl Fn() -> Option<Game> + Send + 'static,
    ) -> SqlResult<Game> {
        let (version, first) = self.published(room)?.unwrap_or_default();
        let (publish, published) = watch::channel(Arc::new(first));
        lock(&self.relayed).insert(room, (publish.clone(), version));
        let (send, receive) = std::sync::mpsc::channel();
        let cluster = Arc::clone(self);
        let _ = std::thread::Builder::new()
            .name(format!("room-relay-{room}"))
            .spawn(move || cluster.serve_relay(room, &receive, &publish, &take_over));
        Ok((send, published))
    }

    /// The views a room's owner last shared, and their number.
    fn published(&self, room: i64) -> SqlResult<Option<(i64, Published)>> {
        let row: Option<(i64, String)> = self.db.read(|c| {
            c.query_opt(
                "SELECT version, body FROM room_published WHERE room = ?1",
                params![room],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
        })?;
        Ok(row.and_then(|(version, body)| {
            serde_json::from_str::<Wire>(&body)
                .ok()
                .map(|w| (version, from_wire(w)))
        }))
    }

    fn serve_relay(
        self: &Arc<Self>,
        room: i64,
        receive: &Receiver<Command>,
        publish: &watch::Sender<Arc<Published>>,
        take_over: &dyn Fn() -> Option<Game>,
    ) {
        while !self.stop.load(Ordering::Relaxed) {
            match receive.recv_timeout(Duration::from_secs(1)) {
                Ok(command) => {
                    if let Err(e) = self.send(room, command) {
                        tracing::error!(room, error = %e, "a message cannot reach its room");
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    if self.try_own(room) {
                        lock(&self.relayed).remove(&room);
                        tracing::info!(room, "the room's owner is gone: its game plays here now");
                        if let Some((commands, game)) = take_over() {
                            self.own(room, commands.clone(), game.clone());
                            super::forward(receive, publish, &commands, game);
                        } else {
                            self.unlock(room);
                        }
                        return;
                    }
                }
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
        lock(&self.relayed).remove(&room);
    }

    /// Sends a command to the room's owner, its answer (if it waits for one) registered.
    fn send(&self, room: i64, command: Command) -> SqlResult<()> {
        let (remote, pending) = match command {
            Command::Join(account) => (Remote::Join { account }, None),
            Command::Leave(account) => (Remote::Leave { account }, None),
            Command::Act {
                account,
                name,
                message,
                reply,
            } => (
                Remote::Act {
                    account,
                    name,
                    message,
                },
                Some(Pending::Act(reply, Instant::now(), room)),
            ),
            Command::MatchFile(reply) => (
                Remote::MatchFile,
                Some(Pending::File(reply, Instant::now(), room)),
            ),
        };
        let text = serde_json::to_string(&remote).unwrap_or_default();
        let id: i64 = self.db.write(|c| {
            c.transaction(false, |tx| {
                let id = tx.query_row(
                    "INSERT INTO room_inbox (room, command, created) VALUES (?1, ?2, ?3) RETURNING id",
                    params![room, text, crate::db::now()],
                    |r| r.get(0),
                )?;
                tx.execute("SELECT pg_notify(?1, ?2)", params![IN, room.to_string()])?;
                Ok(id)
            })
        })?;
        if let Some(p) = pending {
            lock(&self.pending).insert(id, p);
            self.answer(id);
        }
        Ok(())
    }

    /// Gives a waiting relay its answer, when the owner has stored it.
    fn answer(&self, id: i64) {
        let reply: Option<String> = self
            .db
            .read(|c| {
                c.query_opt(
                    "SELECT reply FROM room_inbox WHERE id = ?1 AND reply IS NOT NULL",
                    params![id],
                    |r| r.get(0),
                )
            })
            .ok()
            .flatten();
        let Some(reply) = reply else {
            return;
        };
        let pending = lock(&self.pending).remove(&id);
        if let Some(Pending::Act(_, _, room) | Pending::File(_, _, room)) = &pending {
            self.refresh(*room);
        }
        match pending {
            Some(Pending::Act(to, _, _)) => {
                let _ = to
                    .send(serde_json::from_str(&reply).unwrap_or(Err("the room is closed".into())));
            }
            Some(Pending::File(to, _, _)) => {
                let _ = to.send(serde_json::from_str(&reply).unwrap_or(None));
            }
            None => {}
        }
    }

    /// A relayed room's views, read again after its owner announced a change.
    fn refresh(&self, room: i64) {
        if !lock(&self.relayed).contains_key(&room) {
            return;
        }
        if let Ok(Some((version, p))) = self.published(room)
            && let Some((publish, last)) = lock(&self.relayed).get_mut(&room)
            && version > *last
        {
            *last = version;
            publish.send_replace(Arc::new(p));
        }
    }

    /// Answers that took too long are given up (the owner may be gone); answers whose
    /// announcement was missed are looked up.
    fn sweep(&self) {
        let ids: Vec<i64> = lock(&self.pending).keys().copied().collect();
        for id in ids {
            self.answer(id);
        }
        lock(&self.pending).retain(|_, p| match p {
            Pending::Act(to, at, _) => at.elapsed() < ANSWER_WITHIN && !to.is_closed(),
            Pending::File(to, at, _) => at.elapsed() < ANSWER_WITHIN && !to.is_closed(),
        });
    }

    /// The listener: the announcements of every server, dispatched to this process's rooms.
    fn listen(&self) {
        let mut swept = Instant::now();
        let every = Duration::from_millis(250);
        crate::db::listen(
            &self.url,
            &[IN, OUT, REPLY],
            (&self.stop, every),
            |n: Option<(&str, &str)>| {
                if let Some((channel, payload)) = n {
                    self.dispatch(channel, payload);
                }
                if swept.elapsed() > Duration::from_millis(500) {
                    swept = Instant::now();
                    self.sweep();
                    let rooms: Vec<i64> = lock(&self.relayed).keys().copied().collect();
                    for room in rooms {
                        self.refresh(room);
                    }
                }
            },
        );
    }

    fn dispatch(&self, channel: &str, payload: &str) {
        let Ok(id) = payload.parse::<i64>() else {
            return;
        };
        match channel {
            IN => {
                if let Some(bell) = lock(&self.owned).get(&id) {
                    bell.ring();
                }
            }
            OUT => self.refresh(id),
            REPLY => self.answer(id),
            _ => {}
        }
    }
}

/// Hands a remote command to the room's thread: `None` when the game has ended; else the
/// answer to store, if the command waits for one.
fn deliver(commands: &Sender<Command>, remote: Remote) -> Option<Option<String>> {
    match remote {
        Remote::Join { account } => commands.send(Command::Join(account)).ok().map(|()| None),
        Remote::Leave { account } => commands.send(Command::Leave(account)).ok().map(|()| None),
        Remote::Act {
            account,
            name,
            message,
        } => {
            let (reply, answer) = oneshot::channel();
            commands
                .send(Command::Act {
                    account,
                    name,
                    message,
                    reply,
                })
                .ok()?;
            let answer = answer
                .blocking_recv()
                .unwrap_or(Err("the room is closed".into()));
            Some(Some(serde_json::to_string(&answer).unwrap_or_default()))
        }
        Remote::MatchFile => {
            let (reply, answer) = oneshot::channel();
            commands.send(Command::MatchFile(reply)).ok()?;
            let answer = answer.blocking_recv().unwrap_or(None);
            Some(Some(serde_json::to_string(&answer).unwrap_or_default()))
        }
    }
}
