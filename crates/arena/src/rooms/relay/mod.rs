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
//! when the lock goes — is `owner.rs`; what both sides share, `cluster.rs`.

mod cluster;
mod owner;

use super::live::{Asked, Channels, Command, Published};
use crate::db::Db;
use crate::db::ids::RoomId;
use crate::db::sql::SqlResult;
pub use cluster::Cluster;
use cluster::{IN, OUT, Pending, REPLY, Relayed, Remote, Waiting, Wire, lock};
pub use owner::Claim;
use rusqlite::params;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// How long a relay waits for the owner's answer.
const ANSWER_WITHIN: Duration = Duration::from_secs(20);

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
        room: RoomId,
        take_over: impl Fn(Claim) -> Option<Channels> + Send + 'static,
    ) -> SqlResult<Channels> {
        let (version, first) = self.published(room)?.unwrap_or_default();
        let (publish, published) = watch::channel(Arc::new(first));
        let relayed = Relayed {
            publish: publish.clone(),
            version,
        };
        lock(&self.relayed).insert(room, relayed);
        let (send, receive) = std::sync::mpsc::channel();
        let cluster = Arc::clone(self);
        let _ = std::thread::Builder::new()
            .name(format!("room-relay-{room}"))
            .spawn(move || cluster.serve_relay(room, &receive, &publish, &take_over));
        Ok(Channels {
            commands: send,
            published,
        })
    }

    /// The views a room's owner last shared, and their number.
    fn published(&self, room: RoomId) -> SqlResult<Option<(i64, Published)>> {
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
                .map(|w| (version, w.published()))
        }))
    }

    fn serve_relay(
        self: &Arc<Self>,
        room: RoomId,
        receive: &Receiver<Command>,
        publish: &watch::Sender<Arc<Published>>,
        take_over: &dyn Fn(Claim) -> Option<Channels>,
    ) {
        while !self.stop.load(Ordering::Relaxed) {
            match receive.recv_timeout(Duration::from_secs(1)) {
                Ok(command) => {
                    if let Err(e) = self.send(room, command) {
                        tracing::error!(room = room.get(), error = %e, "a message cannot reach its room");
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    if let Some(claim) = self.try_own(room) {
                        lock(&self.relayed).remove(&room);
                        tracing::info!(
                            room = room.get(),
                            "the room's owner is gone: its game plays here now"
                        );
                        let generation = claim.owner.generation;
                        if let Some(game) = take_over(claim.clone()) {
                            self.own(room, claim, game.clone());
                            forward(receive, publish, &game.commands, game.published);
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
    fn send(&self, room: RoomId, command: Command) -> SqlResult<()> {
        let (remote, waiting) = match command {
            Command::Join(account) => (Remote::Join { account }, None),
            Command::Leave(account) => (Remote::Leave { account }, None),
            Command::Act(Asked {
                account,
                name,
                message,
                reply,
            }) => (
                Remote::Act {
                    account,
                    name,
                    message,
                },
                Some(Waiting::Act(reply)),
            ),
            Command::MatchFile(reply) => (Remote::MatchFile, Some(Waiting::File(reply))),
        };
        let pending = waiting.map(|to| Pending {
            to,
            since: Instant::now(),
            room,
        });
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
        let Some(pending) = lock(&self.pending).remove(&id) else {
            return;
        };
        self.refresh(pending.room);
        match pending.to {
            Waiting::Act(to) => {
                let _ = to
                    .send(serde_json::from_str(&reply).unwrap_or(Err("the room is closed".into())));
            }
            Waiting::File(to) => {
                let _ = to.send(serde_json::from_str(&reply).unwrap_or(None));
            }
        }
    }

    /// A relayed room's views, read again after its owner announced a change.
    fn refresh(&self, room: RoomId) {
        if !lock(&self.relayed).contains_key(&room) {
            return;
        }
        if let Ok(Some((version, p))) = self.published(room)
            && let Some(relayed) = lock(&self.relayed).get_mut(&room)
            && version > relayed.version
        {
            relayed.version = version;
            relayed.publish.send_replace(Arc::new(p));
        }
    }

    /// Answers that took too long are given up (the owner may be gone); answers whose
    /// announcement was missed are looked up.
    fn sweep(&self) {
        let ids: Vec<i64> = lock(&self.pending).keys().copied().collect();
        for id in ids {
            self.answer(id);
        }
        lock(&self.pending).retain(|_, p| p.since.elapsed() < ANSWER_WITHIN && !p.to.is_closed());
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
                    let rooms: Vec<RoomId> = lock(&self.relayed).keys().copied().collect();
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
                if let Some(owned) = lock(&self.owned).get(&RoomId(id)) {
                    owned.bell.ring();
                }
            }
            OUT => self.refresh(RoomId(id)),
            REPLY => self.answer(id),
            _ => {}
        }
    }
}

/// After a take-over: the relay's connections reach the game now playing here.
fn forward(
    receive: &Receiver<Command>,
    publish: &watch::Sender<Arc<Published>>,
    commands: &Sender<Command>,
    mut game: watch::Receiver<Arc<Published>>,
) {
    loop {
        match receive.recv_timeout(Duration::from_millis(5)) {
            Ok(command) => {
                if commands.send(command).is_err() {
                    break;
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => break,
        }
        match game.has_changed() {
            Ok(true) => {
                publish.send_replace(Arc::clone(&game.borrow_and_update()));
            }
            Ok(false) => {}
            Err(_) => break,
        }
    }
}
