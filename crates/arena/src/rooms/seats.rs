//! A room's seats, the same for its three games: who sits where, who is connected (a count of
//! connections an account), who has been away longer than the room's timeout (the computer
//! then plays for them), the joins and leaves taken off the room's channel, and how long the
//! room has had nobody in it. The games (`actor.rs` for the battle, `token/table.rs` for
//! Ricochet and Micro) keep their seats in one of these and read the seats' lists through it.

use super::live::{Asked, Command, Published};
use super::protocol::SeatShown;
use super::store::{Player, Seat};
use crate::db::ids::AccountId;
use std::collections::HashMap;
use std::ops::{Deref, DerefMut};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

/// How long a room with nobody in it keeps its thread (unless its game is under way).
pub const IDLE: Duration = Duration::from_secs(600);

/// The seats of a room, in order, with their players' presence.
pub struct Seats {
    list: Vec<Seat>,
    /// Connections open, by account.
    online: HashMap<AccountId, usize>,
    /// Since when each seat's player has had no connection open.
    away_since: Vec<Option<Instant>>,
    /// How long a player may be away before the computer plays for them.
    timeout: Duration,
}

/// The seats read as their list.
impl Deref for Seats {
    type Target = [Seat];
    fn deref(&self) -> &[Seat] {
        &self.list
    }
}

impl DerefMut for Seats {
    fn deref_mut(&mut self) -> &mut [Seat] {
        &mut self.list
    }
}

/// Why a seat is not taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SitError {
    NoSuchSeat,
    /// Taken by another, the player seated already, or seats not taken now.
    Taken,
}

/// A command off the room's channel, once the seats counted who came and went.
pub enum Received {
    /// Someone joined or left: the seats' views changed.
    Presence,
    Asked(Asked),
    MatchFile(oneshot::Sender<Option<String>>),
    /// Nothing within the wait.
    Nothing,
    /// Every sender is gone: the room is closed.
    Closed,
}

impl Seats {
    /// The seats as stored, and the room's timeout in seconds.
    pub fn new(list: Vec<Seat>, timeout: u32) -> Seats {
        let n = list.len();
        Seats {
            list,
            online: HashMap::new(),
            away_since: vec![None; n],
            timeout: Duration::from_secs(u64::from(timeout)),
        }
    }

    /// The seat of `account`'s player.
    pub fn of(&self, account: AccountId) -> Option<usize> {
        self.list
            .iter()
            .position(|s| s.player.as_ref().is_some_and(|p| p.account == account))
    }

    /// The seat whose player is called `name`.
    pub fn named(&self, name: &str) -> Option<usize> {
        self.list
            .iter()
            .position(|s| s.player.as_ref().is_some_and(|p| p.name == name))
    }

    /// Seats `player` at the seat of `colour`, when `open` (seats are taken now), the seat
    /// free and the player not seated already.
    pub fn sit(&mut self, colour: &str, player: Player, open: bool) -> Result<usize, SitError> {
        let i = self
            .list
            .iter()
            .position(|s| s.colour == colour)
            .ok_or(SitError::NoSuchSeat)?;
        if !open || self.of(player.account).is_some() || self.list[i].player.is_some() {
            return Err(SitError::Taken);
        }
        self.list[i].player = Some(player);
        Ok(i)
    }

    /// Whether seat `i`'s player has a connection open.
    pub fn online(&self, i: usize) -> bool {
        self.list[i]
            .player
            .as_ref()
            .is_some_and(|p| self.online.get(&p.account).copied().unwrap_or(0) > 0)
    }

    /// Whether anyone (seated or not) has a connection open.
    pub fn anyone_here(&self) -> bool {
        self.online.values().any(|&n| n > 0)
    }

    /// Every seat's player's absence noted as it stands now: since when each is away.
    pub fn presence(&mut self) {
        for i in 0..self.list.len() {
            if self.online(i) {
                self.away_since[i] = None;
            } else if self.away_since[i].is_none() {
                self.away_since[i] = Some(Instant::now());
            }
        }
    }

    /// Whether seat `i`'s player has been away longer than the room's timeout, their absence
    /// counted from the first time this is asked (the computer then answers for them).
    pub fn away(&mut self, i: usize) -> bool {
        let since = *self.away_since[i].get_or_insert_with(Instant::now);
        if self.online(i) {
            self.away_since[i] = None;
            return false;
        }
        since.elapsed() >= self.timeout
    }

    /// Whether seat `i`'s player was last seen away longer than the timeout (the computer
    /// plays for them).
    pub fn computer(&self, i: usize) -> bool {
        self.away_since[i].is_some_and(|t| t.elapsed() >= self.timeout)
    }

    /// Seat `i` as the views show it.
    pub fn shown(&self, i: usize, computer: bool, tokens: Option<u32>) -> SeatShown<'_> {
        let s = &self.list[i];
        SeatShown {
            colour: &s.colour,
            player: s.player.as_ref().map(|p| p.name.as_str()),
            ready: s.ready,
            online: self.online(i),
            computer,
            tokens,
        }
    }

    /// The next command within `wait`, joins and leaves counted here.
    pub fn receive(&mut self, commands: &Receiver<Command>, wait: Duration) -> Received {
        match commands.recv_timeout(wait) {
            Ok(Command::Join(a)) => {
                *self.online.entry(a).or_default() += 1;
                Received::Presence
            }
            Ok(Command::Leave(a)) => {
                let n = self.online.entry(a).or_default();
                *n = n.saturating_sub(1);
                Received::Presence
            }
            Ok(Command::Act(asked)) => Received::Asked(asked),
            Ok(Command::MatchFile(reply)) => Received::MatchFile(reply),
            Err(RecvTimeoutError::Timeout) => Received::Nothing,
            Err(RecvTimeoutError::Disconnected) => Received::Closed,
        }
    }

    /// What the room shows: each seat's view, a spectator's, and whether the game started.
    pub fn published(&self, views: Vec<Arc<str>>, spectator: Arc<str>, playing: bool) -> Published {
        Published {
            seated: self
                .list
                .iter()
                .map(|s| s.player.as_ref().map(|p| p.account))
                .collect(),
            colours: self.list.iter().map(|s| s.colour.clone()).collect(),
            connections: self.online.values().sum(),
            views,
            spectator,
            playing,
        }
    }
}

/// How long a room has had nobody in it, counted from when its loop began.
pub struct Idle(Instant);

impl Default for Idle {
    fn default() -> Idle {
        Idle(Instant::now())
    }
}

impl Idle {
    /// Whether nobody has been in the room for `IDLE` (anyone connected counts again from
    /// now).
    pub fn too_long(&mut self, seats: &Seats) -> bool {
        if seats.anyone_here() {
            self.0 = Instant::now();
        }
        self.0.elapsed() > IDLE
    }
}
