//! A room's game in play, as the rest of the server reaches it: each room in play has its own
//! thread, which takes `Command`s from its connections in order and publishes after each
//! change what each seat, and a spectator, may see (`Published`); what its thread is given
//! (`Parts`); and what stops its game (`Halt`: the server stopping, or the room moving to
//! another server).

use super::protocol::{Answer, Message};
use super::store::{RoomRow, Seat};
use crate::db::ids::AccountId;
use crate::db::{Db, DbError};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use tokio::sync::{oneshot, watch};

/// Where the answer to a player's message goes: an answer for them alone, none, or the
/// refusal in words.
pub type Reply = oneshot::Sender<Result<Option<Answer>, String>>;

/// A player's message, as the room's thread takes it.
#[derive(Debug)]
pub struct Asked {
    pub account: AccountId,
    pub name: String,
    pub message: Message,
    pub reply: Reply,
}

/// What the room's thread is asked.
#[derive(Debug)]
pub enum Command {
    /// A connection of this account opened, or closed.
    Join(AccountId),
    Leave(AccountId),
    Act(Asked),
    /// The game as a match file, once over.
    MatchFile(oneshot::Sender<Option<String>>),
}

/// What the room shows, as of its last change.
#[derive(Debug, Default)]
pub struct Published {
    /// Each seat's account, in seat order.
    pub seated: Vec<Option<AccountId>>,
    /// Each seat's colour.
    pub colours: Vec<String>,
    /// Connections open to the room.
    pub connections: usize,
    /// Each seat's view, then a spectator's.
    pub views: Vec<Arc<str>>,
    pub spectator: Arc<str>,
    pub playing: bool,
}

impl Published {
    /// The view for `account`.
    pub fn view_for(&self, account: AccountId) -> Arc<str> {
        self.seated
            .iter()
            .position(|s| *s == Some(account))
            .and_then(|i| self.views.get(i).cloned())
            .unwrap_or_else(|| Arc::clone(&self.spectator))
    }
}

/// A game started here: how to reach its thread, and what it shows.
#[derive(Clone)]
pub struct Channels {
    pub commands: Sender<Command>,
    pub published: watch::Receiver<Arc<Published>>,
}

/// A room in play: how to reach its thread, and what it shows.
#[derive(Clone)]
pub struct Handle {
    pub commands: Sender<Command>,
    pub published: watch::Receiver<Arc<Published>>,
    /// The room's `hello` parts: its settings and board.
    pub room: Arc<RoomRow>,
    pub board: Arc<serde_json::Value>,
}

/// What a room's thread is given: the stored room, its seats and decisions (each a JSON
/// text, in order), its database, its channels, its halt.
pub struct Parts {
    pub row: RoomRow,
    pub seats: Vec<Seat>,
    pub actions: Vec<String>,
    pub db: Arc<Db>,
    pub publish: watch::Sender<Arc<Published>>,
    pub commands: Receiver<Command>,
    pub halt: Halt,
}

/// What stops a room's game: the server stopping, or the game ending here — its room's
/// channel closed, or, on PostgreSQL, its server no longer owning the room (the lock's
/// connection broke, or a write was refused by the room's guard). A game ended so writes
/// nothing more.
#[derive(Clone, Debug)]
pub struct Halt {
    server: Arc<AtomicBool>,
    game: Arc<AtomicBool>,
}

impl Halt {
    /// A game's own halt, under the server's stop.
    pub fn new(server: &Arc<AtomicBool>) -> Halt {
        Halt {
            server: Arc::clone(server),
            game: Arc::new(AtomicBool::new(false)),
        }
    }

    pub fn stopped(&self) -> bool {
        self.ended() || self.server.load(Ordering::Relaxed)
    }

    /// Whether the game ended here (not the server).
    pub fn ended(&self) -> bool {
        self.game.load(Ordering::Relaxed)
    }

    pub fn end(&self) {
        self.game.store(true, Ordering::Relaxed);
    }

    /// A write of the game: when the room's guard refused it, the game ends here, and the
    /// player who asked is told to send it again.
    pub fn wrote<T>(&self, written: Result<T, DbError>, what: &str) -> Result<(), Moved> {
        match written {
            Ok(_) => Ok(()),
            Err(DbError::Fenced) => {
                if !self.ended() {
                    tracing::warn!("a room's game stops here: another server plays it now");
                }
                self.end();
                Err(Moved)
            }
            Err(e) => {
                tracing::error!(error = %e, "a room's {what} cannot be stored");
                Ok(())
            }
        }
    }
}

/// A write refused by the room's guard: the answer to a message its room could not store
/// because it moved to another server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("this room's game moved to another server: send that again")]
pub struct Moved;

/// A room's messages are answered in text (`{"error": …}`).
impl From<Moved> for String {
    fn from(moved: Moved) -> String {
        moved.to_string()
    }
}
