//! Rooms (docs/ROOMS.md): games played live by players on their own devices. Each room in
//! play has its own thread (`actor.rs`) that owns its game (`battle.rs`); connections
//! (`ws.rs`) send it their players' messages and receive what their player may see. Rooms
//! are stored (`store.rs`, the settings, seats and decisions) and played again from the
//! database after a restart. The pages: `pages.rs`.

pub mod actor;
pub mod battle;
pub mod micro;
pub mod pages;
pub mod relay;
pub mod ricochet;
pub mod store;
pub mod table;
#[cfg(test)]
pub(crate) mod tests;
#[cfg(test)]
mod turn_tests;
pub mod ws;

use super::db::{Db, DbError};
use actor::{Actor, Command, Published};
use battle::{Action, Battle, colour};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use tokio::sync::watch;

/// A room in play: how to reach its thread, and what it shows.
#[derive(Clone)]
pub struct Handle {
    pub commands: Sender<Command>,
    pub published: watch::Receiver<Arc<Published>>,
    /// The room's `hello` parts: its settings and board.
    pub room: Arc<store::RoomRow>,
    pub board: Arc<serde_json::Value>,
}

/// The rooms in play.
pub struct Rooms {
    db: Arc<Db>,
    stop: Arc<AtomicBool>,
    live: Mutex<HashMap<String, Handle>>,
    /// On PostgreSQL: the rooms of every server (`relay/`).
    pub(crate) cluster: Option<Arc<relay::Cluster>>,
}

use relay::Game;

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

/// Starts the game of the room `code` on its own thread, played again from the database up
/// to where it stood; returns once its first views are published. `claim`: the owner and
/// halt this server took the room with (PostgreSQL); else the room's stored generation.
fn spawn_game(
    db: &Arc<Db>,
    stop: &Arc<AtomicBool>,
    code: &str,
    claim: Option<relay::Claim>,
) -> Result<Option<Game>, DbError> {
    let Some(mut row) = db.read(|c| store::by_code(c, code))? else {
        return Ok(None);
    };
    let halt = match claim {
        Some((owner, halt)) => {
            row.owner = owner;
            halt
        }
        None => Halt::new(stop),
    };
    let seats = db.read(|c| store::seats(c, row.id))?;
    let actions = db.read(|c| store::actions(c, row.id))?;
    let (send, receive) = std::sync::mpsc::channel();
    let (publish, mut published) = watch::channel(Arc::new(Published::default()));
    let (db, first) = (Arc::clone(db), row.clone());
    // The game is played again on the room's own thread (the table stays there).
    std::thread::Builder::new()
        .name(format!("room-{}", &row.code[..8.min(row.code.len())]))
        .spawn(move || {
            let parts = ((first, seats, actions), db, publish, receive, halt);
            match parts.0.0.settings.game.as_str() {
                "ricochet" => return ricochet::run(parts),
                "micro" => return micro::run(parts),
                _ => {}
            }
            let ((first, seats, actions), db, publish, receive, halt) = parts;
            let battle = rebuild(first, seats, &actions);
            let n = battle.seats.len();
            let saved_turn = battle.turn();
            let actor = Actor {
                battle,
                db,
                online: HashMap::new(),
                away_since: vec![None; n],
                publish,
                saved_turn,
                halt,
            };
            actor.run(&receive);
        })
        .map_err(|_| DbError::Unsupported("a room cannot start its thread"))?;
    // Its first views are published once the game stands where it stood.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while published.borrow_and_update().views.is_empty() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    Ok(Some((send, published)))
}

impl Rooms {
    pub fn new(db: Arc<Db>, stop: Arc<AtomicBool>) -> Rooms {
        let cluster = db
            .pg_url()
            .map(|url| relay::Cluster::start(Arc::clone(&db), url, Arc::clone(&stop)));
        Rooms {
            db,
            stop,
            live: Mutex::new(HashMap::new()),
            cluster,
        }
    }

    /// The room `code`, its thread started (and its game played again) when it is not running
    /// — here, or, on PostgreSQL, a relay to the server where it runs.
    pub fn get(&self, code: &str) -> Result<Option<Handle>, DbError> {
        let mut live = self.live.lock().unwrap_or_else(PoisonError::into_inner);
        // A room's thread ends when nobody has been in it for a while (`actor::IDLE`).
        if let Some(h) = live.get(code) {
            if h.published.has_changed().is_ok() {
                return Ok(Some(h.clone()));
            }
            live.remove(code);
        }
        let Some(row) = self.db.read(|c| store::by_code(c, code))? else {
            return Ok(None);
        };
        let board =
            match robots_games::battle::files::shipped::board(&row.settings.board).and_then(|t| {
                robots_games::battle::files::board_file::parse_board(&row.settings.board, t).ok()
            }) {
                Some(b) => serde_json::to_value(robots_games::battle::show::view::board_view(&b))
                    .unwrap_or_default(),
                None => serde_json::Value::Null,
            };
        let claim = self.cluster.as_ref().and_then(|c| c.try_own(row.id));
        let game = match (&self.cluster, claim) {
            (Some(cluster), None) => {
                let (db, stop, code) = (
                    Arc::clone(&self.db),
                    Arc::clone(&self.stop),
                    code.to_string(),
                );
                cluster.relay(row.id, move |claim| {
                    spawn_game(&db, &stop, &code, Some(claim)).ok().flatten()
                })?
            }
            (cluster, claim) => {
                let Some(game) = spawn_game(&self.db, &self.stop, code, claim.clone())? else {
                    return Ok(None);
                };
                if let (Some(cluster), Some(claim)) = (cluster, claim) {
                    cluster.own(row.id, claim, game.0.clone(), game.1.clone());
                }
                game
            }
        };
        let handle = Handle {
            commands: game.0,
            published: game.1,
            room: Arc::new(row),
            board: Arc::new(board),
        };
        live.insert(code.to_string(), handle.clone());
        Ok(Some(handle))
    }

    /// Starts every room whose game is under way (after a restart, they play on). On
    /// PostgreSQL, only those no other server plays.
    pub fn resume_all(&self) -> Result<usize, DbError> {
        let codes = self.db.read(store::live_codes)?;
        let mut resumed = 0;
        for code in &codes {
            if self.cluster.is_some()
                && self
                    .live
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .contains_key(code)
            {
                continue;
            }
            let row = self.db.read(|c| store::by_code(c, code))?;
            if let (Some(cluster), Some(row)) = (&self.cluster, &row)
                && cluster.try_own(row.id).is_none()
            {
                continue;
            }
            self.get(code)?;
            resumed += 1;
        }
        Ok(resumed)
    }

    /// On PostgreSQL: every few seconds, the rooms under way that no server plays (their
    /// owner died with nobody connected elsewhere) are started here.
    pub fn keep(rooms: &Arc<Rooms>) {
        if rooms.cluster.is_none() {
            return;
        }
        let weak = Arc::downgrade(rooms);
        let _ = std::thread::Builder::new()
            .name("rooms-keeper".into())
            .spawn(move || {
                loop {
                    std::thread::sleep(std::time::Duration::from_secs(3));
                    let Some(rooms) = weak.upgrade() else { return };
                    if rooms.stop.load(std::sync::atomic::Ordering::Relaxed) {
                        return;
                    }
                    match rooms.resume_all() {
                        Ok(n) if n > 0 => tracing::info!(rooms = n, "rooms taken over"),
                        Ok(_) => {}
                        Err(e) => tracing::warn!(error = %e, "rooms cannot be taken over"),
                    }
                }
            });
    }
}

/// After a take-over: the relay's connections reach the game now playing here.
pub(crate) fn forward(
    receive: &Receiver<Command>,
    publish: &watch::Sender<Arc<Published>>,
    commands: &Sender<Command>,
    mut game: watch::Receiver<Arc<Published>>,
) {
    loop {
        match receive.recv_timeout(std::time::Duration::from_millis(5)) {
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

/// The game of a stored room: started when it was, every decision applied at the turn it
/// was made, then played to the turn reached.
pub fn rebuild(row: store::RoomRow, seats: Vec<store::Seat>, actions: &[String]) -> Battle {
    let turn = row.turn;
    let started = row.state != "writing";
    let mut battle = Battle::new(row, seats);
    if !started {
        return battle;
    }
    if let Err(e) = battle.start() {
        tracing::error!(room = %battle.room.code, error = %e, "a room's game cannot be set up again");
        return battle;
    }
    for text in actions {
        let Ok(action) = serde_json::from_str::<Action>(text) else {
            continue;
        };
        if let Action::Signal { turn, .. } | Action::Skip { turn } = &action {
            battle.catch_up(*turn);
        }
        let by = battle.decider().unwrap_or(colour(&battle.seats[0]));
        if let Err(e) = battle.apply(by, &action) {
            tracing::error!(room = %battle.room.code, error = %e, "a stored decision does not apply");
        }
    }
    battle.catch_up(turn);
    battle
}

/// A new room's code: 32 hex digits from the system's random source.
pub fn new_code() -> Result<String, super::auth::CryptoError> {
    Ok(super::auth::new_secret()?[..32].to_string())
}
