//! The table of a room played in turns of questions (Ricochet Robots, Micro Robots): its
//! seats numbered 1 to 4 (`seats::Seats`), the seating before the game, the room's messages
//! taken one at a time, the answers stored in order, the tokens, and the end. Each game's
//! room (`ricochet.rs`, `micro.rs`) keeps its own view of the game around one of these.

use crate::db::Db;
use crate::rooms::live::{Asked, Command, Halt, Moved, Parts, Published, Reply};
use crate::rooms::protocol::{Message, SeatShown};
use crate::rooms::seats::{Idle, Received, Seats, SitError};
use crate::rooms::store::{self, Player, RoomRow, RoomState};
use std::sync::Arc;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// The room's seats and connections, its database and its channels.
pub struct Table {
    pub row: RoomRow,
    pub seats: Seats,
    db: Arc<Db>,
    commands: Receiver<Command>,
    publish: watch::Sender<Arc<Published>>,
    pub halt: Halt,
    pub tokens: Vec<u32>,
}

impl Table {
    /// The table of a room, and its stored answers (each a JSON text, in order).
    pub fn new(parts: Parts) -> (Table, Vec<String>) {
        let table = Table {
            tokens: vec![0; parts.seats.len()],
            seats: Seats::new(parts.seats, parts.row.settings.timeout),
            row: parts.row,
            db: parts.db,
            commands: parts.commands,
            publish: parts.publish,
            halt: parts.halt,
        };
        (table, parts.actions)
    }

    pub fn stopped(&self) -> bool {
        self.halt.stopped()
    }

    /// The seats as every view shows them: colour, player, ready, online, played by the
    /// computer, tokens.
    pub fn seats_view(&self) -> Vec<SeatShown<'_>> {
        (0..self.seats.len())
            .map(|i| {
                let computer = self.row.state == RoomState::Playing && self.seats.computer(i);
                self.seats.shown(i, computer, Some(self.tokens[i]))
            })
            .collect()
    }

    /// Publishes each seat's view (`state(Some(i))`) and a spectator's (`state(None)`), as
    /// they are sent.
    pub fn publish(&self, state: impl Fn(Option<usize>) -> String) {
        let views = (0..self.seats.len())
            .map(|i| Arc::from(state(Some(i))))
            .collect();
        let playing = self.row.state != RoomState::Writing;
        let published = self.seats.published(views, Arc::from(state(None)), playing);
        self.publish.send_replace(Arc::new(published));
    }

    /// Stores an answer of the players (a JSON text), after those before it: refused only
    /// when the room moved to another server (the game ends here).
    pub fn store(&self, answer: &impl serde::Serialize) -> Result<(), Moved> {
        let (fence, text) = (
            self.row.fence(),
            serde_json::to_string(answer).unwrap_or_default(),
        );
        let written = self.db.write(|c| store::push_action(c, fence, &text, None));
        self.halt.wrote(written, "answer")
    }

    pub fn save(&mut self, state: RoomState) -> Result<(), Moved> {
        self.row.state = state;
        let fence = self.row.fence();
        let written = self
            .db
            .write(|c| store::set_state(c, fence, (state, 0), (false, 0.0)));
        self.halt.wrote(written, "state")
    }

    fn save_seat(&self, i: usize) -> Result<(), String> {
        let (fence, seat) = (self.row.fence(), self.seats[i].clone());
        let written = self.db.write(|c| store::set_seat(c, fence, &seat));
        Ok(self.halt.wrote(written, "seat")?)
    }

    /// One command while seating; `true` once the host started the game.
    fn seating(&mut self, player: Player, message: Message) -> Result<bool, String> {
        let (account, seat) = (player.account, self.seats.of(player.account));
        match message {
            Message::Sit { colour } => {
                let i = self.seats.sit(&colour, player, true).map_err(|e| match e {
                    SitError::NoSuchSeat => "no such seat",
                    SitError::Taken => "that seat cannot be taken",
                })?;
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
                self.save(RoomState::Playing)?;
                return Ok(true);
            }
            _ => return Err("the game has not started".into()),
        }
        Ok(false)
    }

    /// Takes the next command within `wait`: presence is handled here (and republished by
    /// `changed`); an action is returned.
    pub fn next(&mut self, wait: Duration, changed: &dyn Fn(&Table)) -> Option<Asked> {
        match self.seats.receive(&self.commands, wait) {
            Received::Presence => {
                changed(self);
                None
            }
            Received::MatchFile(reply) => {
                let _ = reply.send(None);
                None
            }
            Received::Asked(asked) => Some(asked),
            Received::Nothing => None,
            Received::Closed => {
                self.halt.end();
                None
            }
        }
    }

    /// Seats the players until the host starts; `false` when the server stops first (or
    /// nobody came for a while).
    pub fn seat_players(&mut self, changed: &dyn Fn(&Table)) -> bool {
        let mut idle = Idle::default();
        while self.row.state == RoomState::Writing {
            if self.stopped() || idle.too_long(&self.seats) {
                return false;
            }
            let Some(Asked {
                account,
                name,
                message,
                reply,
            }) = self.next(Duration::from_millis(500), changed)
            else {
                continue;
            };
            let answer = self.seating(Player { account, name }, message);
            if answer.is_ok() {
                changed(self);
            }
            let _ = reply.send(answer.map(|_| None));
        }
        self.row.state != RoomState::Over
    }

    /// The end is published: the room stays open while anyone is in it.
    pub fn linger(&mut self, changed: &dyn Fn(&Table)) {
        let _ = self.save(RoomState::Over);
        changed(self);
        let mut idle = Idle::default();
        while !self.stopped() && !idle.too_long(&self.seats) {
            if let Some(Asked { reply, .. }) = self.next(Duration::from_millis(500), changed) {
                let _ = reply.send(Err("the game is over".into()));
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
            if now >= until || self.seats.away(player) {
                return Ok(None);
            }
            let wait = (until - now).min(Duration::from_millis(500));
            let Some(Asked {
                account,
                message,
                reply,
                ..
            }) = self.next(wait, changed)
            else {
                continue;
            };
            match message {
                Message::Show { moves } if self.seats.of(account) == Some(player) => {
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
