//! The table of a room played in turns of questions (Ricochet Robots, Micro Robots): the
//! seats numbered 1 to 4, who is connected and who has been away too long, the seating
//! before the game, the room's messages taken one at a time, the answers stored in order,
//! and the end. Each game's room (`ricochet.rs`, `micro.rs`) keeps its own view of the game
//! around one of these.

use super::Halt;
use super::actor::{Command, Message, Published, Reply};
use super::store::{self, RoomRow, Seat};
use crate::db::Db;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// An action asked of the room: who, their name, the message, where the answer goes.
pub type Asked = (i64, String, Message, Reply);

/// The room's seats and connections, its database and its channels.
pub struct Table {
    pub row: RoomRow,
    pub seats: Vec<Seat>,
    db: Arc<Db>,
    commands: Receiver<Command>,
    publish: watch::Sender<Arc<Published>>,
    pub halt: Halt,
    online: HashMap<i64, usize>,
    /// Since when each seat's player has had no connection open.
    away_since: Vec<Option<Instant>>,
    pub tokens: Vec<u32>,
}

/// What a room's thread is given: the stored room, its database, its channels, its halt.
pub type Parts = (
    (RoomRow, Vec<Seat>, Vec<String>),
    Arc<Db>,
    watch::Sender<Arc<Published>>,
    Receiver<Command>,
    Halt,
);

impl Table {
    /// The table of a room, and its stored answers (each a JSON text, in order).
    pub fn new(parts: Parts) -> (Table, Vec<String>) {
        let ((row, seats, actions), db, publish, commands, halt) = parts;
        let n = seats.len();
        let table = Table {
            row,
            seats,
            db,
            commands,
            publish,
            halt,
            online: HashMap::new(),
            away_since: vec![None; n],
            tokens: vec![0; n],
        };
        (table, actions)
    }

    pub fn stopped(&self) -> bool {
        self.halt.stopped()
    }

    pub fn seat_of(&self, account: i64) -> Option<usize> {
        self.seats
            .iter()
            .position(|s| s.player.as_ref().is_some_and(|p| p.0 == account))
    }

    /// The seat whose player is called `name`.
    pub fn seat_named(&self, name: &str) -> Option<usize> {
        self.seats
            .iter()
            .position(|s| s.player.as_ref().is_some_and(|p| p.1 == name))
    }

    fn online(&self, i: usize) -> bool {
        self.seats[i]
            .player
            .as_ref()
            .is_some_and(|p| self.online.get(&p.0).copied().unwrap_or(0) > 0)
    }

    /// Whether seat `i`'s player has been away longer than the room's timeout (the computer
    /// then answers for them).
    pub fn away(&mut self, i: usize) -> bool {
        let since = *self.away_since[i].get_or_insert_with(Instant::now);
        if self.online(i) {
            self.away_since[i] = None;
            return false;
        }
        since.elapsed() >= Duration::from_secs(u64::from(self.row.settings.timeout))
    }

    /// The seats as every view shows them: colour, player, ready, online, played by the
    /// computer, tokens.
    pub fn seats_view(&self) -> Vec<Value> {
        let timeout = Duration::from_secs(u64::from(self.row.settings.timeout));
        (0..self.seats.len())
            .map(|i| {
                let s = &self.seats[i];
                let computer = self.row.state == "playing"
                    && self.away_since[i].is_some_and(|t| t.elapsed() >= timeout);
                json!({"colour": s.colour, "player": s.player.as_ref().map(|p| &p.1), "ready": s.ready,
                    "online": self.online(i), "computer": computer, "tokens": self.tokens[i]})
            })
            .collect()
    }

    /// Publishes each seat's view (`state(Some(i))`) and a spectator's (`state(None)`).
    pub fn publish(&self, state: impl Fn(Option<usize>) -> Value) {
        let views: Vec<Arc<str>> = (0..self.seats.len())
            .map(|i| Arc::from(state(Some(i)).to_string()))
            .collect();
        self.publish.send_replace(Arc::new(Published {
            seated: self
                .seats
                .iter()
                .map(|s| s.player.as_ref().map(|p| p.0))
                .collect(),
            colours: self.seats.iter().map(|s| seat_name(&s.colour)).collect(),
            connections: self.online.values().sum(),
            views,
            spectator: Arc::from(state(None).to_string()),
            playing: self.row.state != "writing",
        }));
    }

    /// Stores an answer of the players (a JSON text), after those before it: refused only
    /// when the room moved to another server (the game ends here).
    pub fn store(&self, answer: &impl serde::Serialize) -> Result<(), super::Moved> {
        let (fence, text) = (
            self.row.fence(),
            serde_json::to_string(answer).unwrap_or_default(),
        );
        let written = self.db.write(|c| store::push_action(c, fence, &text, None));
        self.halt.wrote(written, "answer")
    }

    pub fn save(&mut self, state: &str) -> Result<(), super::Moved> {
        state.clone_into(&mut self.row.state);
        let fence = self.row.fence();
        let state = state.to_string();
        let written = self
            .db
            .write(|c| store::set_state(c, fence, (&state, 0), (false, 0.0)));
        self.halt.wrote(written, "state")
    }

    fn save_seat(&self, i: usize) -> Result<(), String> {
        let (fence, seat) = (self.row.fence(), self.seats[i].clone());
        let written = self.db.write(|c| store::set_seat(c, fence, &seat));
        Ok(self.halt.wrote(written, "seat")?)
    }

    /// One command while seating; `true` once the host started the game.
    fn seating(&mut self, account: i64, name: &str, message: Message) -> Result<bool, String> {
        let seat = self.seat_of(account);
        match message {
            Message::Sit { colour } => {
                let i = self
                    .seats
                    .iter()
                    .position(|s| s.colour == colour)
                    .ok_or("no such seat")?;
                if seat.is_some() || self.seats[i].player.is_some() {
                    return Err("that seat cannot be taken".into());
                }
                self.seats[i].player = Some((account, name.to_string()));
                self.save_seat(i)?;
            }
            Message::Ready { ready } => {
                let i = seat.ok_or("take a seat first")?;
                self.seats[i].ready = ready;
                self.save_seat(i)?;
            }
            Message::Start => {
                if self.row.host != account {
                    return Err("the host starts the game".into());
                }
                if !self.seats.iter().all(|s| s.player.is_some() && s.ready) {
                    return Err("every seat needs a player, ready".into());
                }
                self.save("playing")?;
                return Ok(true);
            }
            _ => return Err("the game has not started".into()),
        }
        Ok(false)
    }

    /// Takes the next command within `wait`: presence is handled here (and republished by
    /// `changed`); an action is returned.
    pub fn next(&mut self, wait: Duration, changed: &dyn Fn(&Table)) -> Option<Asked> {
        match self.commands.recv_timeout(wait) {
            Ok(Command::Join(a)) => {
                *self.online.entry(a).or_default() += 1;
                changed(self);
                None
            }
            Ok(Command::Leave(a)) => {
                let n = self.online.entry(a).or_default();
                *n = n.saturating_sub(1);
                changed(self);
                None
            }
            Ok(Command::MatchFile(reply)) => {
                let _ = reply.send(None);
                None
            }
            Ok(Command::Act {
                account,
                name,
                message,
                reply,
            }) => Some((account, name, message, reply)),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                self.halt.end();
                None
            }
        }
    }

    /// Seats the players until the host starts; `false` when the server stops first (or
    /// nobody came for a while).
    pub fn seat_players(&mut self, changed: &dyn Fn(&Table)) -> bool {
        let mut empty_since = Instant::now();
        while self.row.state == "writing" {
            if self.stopped() || empty_since.elapsed() > super::actor::IDLE {
                return false;
            }
            if self.online.values().any(|&n| n > 0) {
                empty_since = Instant::now();
            }
            let Some((account, name, message, reply)) =
                self.next(Duration::from_millis(500), changed)
            else {
                continue;
            };
            let answer = self.seating(account, &name, message);
            if answer.is_ok() {
                changed(self);
            }
            let _ = reply.send(answer.map(|_| None));
        }
        self.row.state != "over"
    }

    /// The end is published: the room stays open while anyone is in it.
    pub fn linger(&mut self, changed: &dyn Fn(&Table)) {
        let _ = self.save("over");
        changed(self);
        let mut empty_since = Instant::now();
        while !self.stopped() && empty_since.elapsed() < super::actor::IDLE {
            if let Some((_, _, _, reply)) = self.next(Duration::from_millis(500), changed) {
                let _ = reply.send(Err("the game is over".into()));
            }
            if self.online.values().any(|&n| n > 0) {
                empty_since = Instant::now();
            }
        }
    }
}

/// The server stops: the game in play ends where it stands (it is played again on restart).
pub struct Stopped;

impl Table {
    /// Waits up to `seconds` for seat `player`'s `show` message, read by `accept` (what it
    /// refuses goes back to them in words, and they try again): the text shown, what
    /// `accept` made of it and where its answer goes (once stored), or `None` when they are
    /// away or out of time.
    pub fn await_show<T>(
        &mut self,
        (player, seconds): (usize, f64),
        changed: &dyn Fn(&Table),
        accept: impl Fn(&str) -> Result<T, String>,
        refusal: &str,
    ) -> Result<Option<(String, T, Reply)>, Stopped> {
        let until = Instant::now() + Duration::from_secs_f64(seconds);
        loop {
            if self.stopped() {
                return Err(Stopped);
            }
            let now = Instant::now();
            if now >= until || self.away(player) {
                return Ok(None);
            }
            let wait = (until - now).min(Duration::from_millis(500));
            let Some((account, _, message, reply)) = self.next(wait, changed) else {
                continue;
            };
            match message {
                Message::Show { moves } if self.seat_of(account) == Some(player) => {
                    match accept(&moves) {
                        Ok(read) => return Ok(Some((moves, read, reply))),
                        Err(e) => {
                            let _ = reply.send(Err(e));
                        }
                    }
                }
                _ => {
                    let _ = reply.send(Err(refusal.into()));
                }
            }
        }
    }
}

/// A numbered seat's name, as the views name it.
fn seat_name(seat: &str) -> &'static str {
    match seat {
        "1" => "1",
        "2" => "2",
        "3" => "3",
        _ => "4",
    }
}
