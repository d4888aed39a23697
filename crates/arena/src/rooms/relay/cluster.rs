//! What the two sides of a room across servers share (`mod.rs`, the relay's side;
//! `owner.rs`, the owner's): this process's part in the rooms of every server (`Cluster`),
//! the channels its servers announce on, and the commands and views as they travel through
//! the database.

use crate::db::Db;
use crate::db::ids::{AccountId, RoomId};
use crate::rooms::live::{Halt, Published, Reply};
use crate::rooms::protocol::Message;
use crate::rooms::store::Owner;
use crate::worker::Bell;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Instant;
use tokio::sync::{oneshot, watch};

/// A relay's announcement: a message waits in a room's inbox (its payload the room).
pub const IN: &str = "robots_room_in";
/// An owner's announcement: a room's views changed (its payload the room).
pub const OUT: &str = "robots_room_out";
/// An owner's announcement: a message's answer is stored (its payload the message).
pub const REPLY: &str = "robots_room_reply";

/// A command as it travels to the owner.
#[derive(Serialize, Deserialize)]
#[serde(tag = "command", rename_all = "lowercase")]
pub enum Remote {
    Join {
        account: AccountId,
    },
    Leave {
        account: AccountId,
    },
    Act {
        account: AccountId,
        name: String,
        message: Message,
    },
    MatchFile,
}

/// What the owner published, as it travels.
#[derive(Serialize, Deserialize)]
pub struct Wire {
    seated: Vec<Option<AccountId>>,
    colours: Vec<String>,
    connections: usize,
    views: Vec<String>,
    spectator: String,
    playing: bool,
}

impl Wire {
    pub fn of(p: &Published) -> Wire {
        Wire {
            seated: p.seated.clone(),
            colours: p.colours.clone(),
            connections: p.connections,
            views: p.views.iter().map(|v| v.to_string()).collect(),
            spectator: p.spectator.to_string(),
            playing: p.playing,
        }
    }

    pub fn published(self) -> Published {
        Published {
            seated: self.seated,
            colours: self.colours,
            connections: self.connections,
            views: self.views.into_iter().map(Arc::from).collect(),
            spectator: Arc::from(self.spectator),
            playing: self.playing,
        }
    }
}

/// A relayed room: where its views go, and the number of the last sent.
pub struct Relayed {
    pub publish: watch::Sender<Arc<Published>>,
    pub version: i64,
}

/// An answer a relay waits for: where it goes, since when, for which room.
pub struct Pending {
    pub to: Waiting,
    pub since: Instant,
    pub room: RoomId,
}

/// Where a relayed answer goes: a player's message's, or the match file's.
pub enum Waiting {
    Act(Reply),
    File(oneshot::Sender<Option<String>>),
}

impl Waiting {
    /// Whether nobody waits for the answer any more.
    pub fn is_closed(&self) -> bool {
        match self {
            Waiting::Act(to) => to.is_closed(),
            Waiting::File(to) => to.is_closed(),
        }
    }
}

/// The connection holding the locks of the rooms this process owns, and its backend's pid.
pub struct Locks {
    pub client: postgres::Client,
    pub pid: i32,
}

/// A room owned here: its inbox's bell, who writes it, what stops its game.
pub struct Owned {
    pub bell: Arc<Bell>,
    pub owner: Owner,
    pub halt: Halt,
}

/// This process's part in the rooms of every server.
pub struct Cluster {
    pub(super) db: Arc<Db>,
    pub(super) url: String,
    pub(super) stop: Arc<AtomicBool>,
    /// The locks' connection (`owner.rs`).
    pub(super) locks: Mutex<Option<Locks>>,
    pub(super) owned: Mutex<HashMap<RoomId, Owned>>,
    /// The rooms relayed here: where their views go, and the version last sent.
    pub(super) relayed: Mutex<HashMap<RoomId, Relayed>>,
    /// The answers waited for, by inbox message.
    pub(super) pending: Mutex<HashMap<i64, Pending>>,
}

pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}
