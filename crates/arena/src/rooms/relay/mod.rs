//! Rooms across servers (PostgreSQL; docs/SCALE.md). A room's game runs in one process, its
//! *owner*: the one holding the room's advisory lock, taken on a connection of its own so
//! that the lock goes when the process dies. A connection that reaches another server is
//! served there by a *relay*: its messages go through the table `room_inbox` (NOTIFY
//! `robots_room_in`), the owner answers in the same row (`robots_room_reply`), and it
//! publishes each change of its views in `room_published` (`robots_room_out`). A relay whose
//! owner is gone takes the lock and becomes the owner: the game is played again from the
//! database, as after a restart. What a relay is sent is what the owner's connections are:
//! each player's own view, nothing else (the views travel through the database, which only
//! the servers reach). The owner's side — its lock, its generation, the end of its games
//! when the lock goes — is `owner.rs`.

mod owner;

use super::actor::{Command, Message, Published};
use crate::db::Db;
use crate::db::sql::SqlResult;
pub use owner::Claim;
use owner::Owned;
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
    /// The connection holding the locks of the rooms this process owns, and its backend's
    /// pid (`owner.rs`).
    locks: Mutex<Option<(postgres::Client, i32)>>,
    owned: Mutex<HashMap<i64, Owned>>,
    /// The rooms relayed here: where their views go, and the version last sent.
    relayed: Mutex<HashMap<i64, Relayed>>,
    pending: Mutex<HashMap<i64, Pending>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Cluster {
    /// The process's part, its listener and the watch on its locks started.
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
        let watcher = Arc::clone(&cluster);
        let _ = std::thread::Builder::new()
            .name("rooms-locks".into())
            .spawn(move || watcher.watch_locks());
        cluster
    }

    /// A relay for a room another process owns: a handle's two ends, served by a thread that
    /// takes the room over when its owner goes.
    pub fn relay(
        self: &Arc<Self>,
        room: i64,
        take_over: impl Fn(Claim) -> Option<Game> + Send + 'static,
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
        take_over: &dyn Fn(Claim) -> Option<Game>,
    ) {
        while !self.stop.load(Ordering::Relaxed) {
            match receive.recv_timeout(Duration::from_secs(1)) {
                Ok(command) => {
                    if let Err(e) = self.send(room, command) {
                        tracing::error!(room, error = %e, "a message cannot reach its room");
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    if let Some(claim) = self.try_own(room) {
                        lock(&self.relayed).remove(&room);
                        tracing::info!(room, "the room's owner is gone: its game plays here now");
                        let generation = claim.0.generation;
                        if let Some((commands, game)) = take_over(claim.clone()) {
                            self.own(room, claim, commands.clone(), game.clone());
                            super::forward(receive, publish, &commands, game);
                        } else {
                            self.unlock(room, generation);
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
                if let Some(owned) = lock(&self.owned).get(&id) {
                    owned.bell.ring();
                }
            }
            OUT => self.refresh(id),
            REPLY => self.answer(id),
            _ => {}
        }
    }
}
