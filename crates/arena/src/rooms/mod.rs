//! Rooms (docs/ROOMS.md): the three games played live by players on their own devices. Each
//! room in play has its own thread (`live.rs`: its channel, its views, its halt) that owns
//! its game: the battle game's (`actor.rs` around `battle.rs`), or a token game's
//! (`token/`); all three seat their players in one `Seats` (`seats.rs`). Connections
//! (`ws.rs`) send it their players' messages and receive what their player may see, in the
//! protocol's types (`protocol.rs`). Rooms are stored (`room.rs`, the stored types;
//! `store.rs`, the queries) and played again from the database after a restart; on
//! PostgreSQL, a room runs on one server and the others relay (`relay/`). The pages:
//! `pages.rs`. This file keeps the rooms in play (`Rooms`) and starts their threads; its
//! parts never name it.

pub mod actor;
pub mod battle;
pub mod live;
pub mod pages;
pub mod protocol;
pub mod relay;
pub mod room;
pub mod seats;
pub mod store;
#[cfg(test)]
pub(crate) mod tests;
pub mod token;
pub mod ws;

use super::db::{Db, DbError};
use actor::Actor;
use live::{Channels, Halt, Handle, Parts, Published};
use room::Game;
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, PoisonError};
use tokio::sync::watch;

/// The rooms in play.
pub struct Rooms {
    db: Arc<Db>,
    stop: Arc<AtomicBool>,
    live: Mutex<HashMap<String, Handle>>,
    /// On PostgreSQL: the rooms of every server (`relay/`).
    pub(crate) cluster: Option<Arc<relay::Cluster>>,
}

/// Starts the game of the room `code` on its own thread, played again from the database up
/// to where it stood; returns once its first views are published. `claim`: the owner and
/// halt this server took the room with (PostgreSQL); else the room's stored generation.
fn spawn_game(
    db: &Arc<Db>,
    stop: &Arc<AtomicBool>,
    code: &str,
    claim: Option<relay::Claim>,
) -> Result<Option<Channels>, DbError> {
    let Some(mut row) = db.read(|c| store::by_code(c, code))? else {
        return Ok(None);
    };
    let halt = match claim {
        Some(claim) => {
            row.owner = claim.owner;
            claim.halt
        }
        None => Halt::new(stop),
    };
    let seats = db.read(|c| store::seats(c, row.id))?;
    let actions = db.read(|c| store::actions(c, row.id))?;
    let (send, receive) = std::sync::mpsc::channel();
    let (publish, mut published) = watch::channel(Arc::new(Published::default()));
    let parts = Parts {
        row: row.clone(),
        seats,
        actions,
        db: Arc::clone(db),
        publish,
        commands: receive,
        halt,
    };
    // The game is played again on the room's own thread (the table stays there).
    std::thread::Builder::new()
        .name(format!("room-{}", &row.code[..8.min(row.code.len())]))
        .spawn(move || match parts.row.settings.game {
            Game::Ricochet => token::ricochet::run(parts),
            Game::Micro => token::micro::run(parts),
            Game::Battle => {
                let (actor, commands) = Actor::new(parts);
                actor.run(&commands);
            }
        })
        .map_err(|_| DbError::Unsupported("a room cannot start its thread"))?;
    // Its first views are published once the game stands where it stood.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while published.borrow_and_update().views.is_empty() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    Ok(Some(Channels {
        commands: send,
        published,
    }))
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
        // A room's thread ends when nobody has been in it for a while (`seats::IDLE`).
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
                    cluster.own(row.id, claim, game.clone());
                }
                game
            }
        };
        let handle = Handle {
            commands: game.commands,
            published: game.published,
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
