//! A room's own thread (the table of `robots play` is not shared between threads): it owns
//! the game, takes the players' messages in order, plays the match at the room's pace,
//! plays for a player away longer than the timeout, stores every decision, and publishes
//! after each change what each seat, and a spectator, may see.

use super::Halt;
use super::battle::{Action, Battle, Viewer, colour};
use super::store::{self, Seat};
use crate::db::Db;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};
use tokio::sync::{oneshot, watch};

/// The fastest pace, in robot turns a second.
pub const MAX_PACE: f64 = 500.0;
/// How long a room with nobody in it keeps its thread (unless its match is under way).
pub const IDLE: Duration = Duration::from_secs(600);
/// Steps between two writes of the turn reached.
const SAVE_EVERY: u64 = 25;

/// What a client may send (docs/ROOMS.md, "The protocol").
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum Message {
    Sit {
        colour: String,
    },
    Program {
        source: String,
    },
    Ready {
        ready: bool,
    },
    Start,
    Place {
        at: [i32; 2],
        facing: u8,
    },
    Signal {
        robot: String,
        step: u8,
    },
    Skip,
    Pace {
        turns_per_second: f64,
    },
    Pause,
    Resume,
    /// Ricochet: a bid of so many moves.
    Bid {
        moves: u32,
    },
    /// Ricochet: no more bids this round.
    Pass,
    /// Ricochet: the bidder's moves, as `robots ricochet check` takes them; Micro: the
    /// cells the robot stops on after the start (`B5 R5`).
    Show {
        moves: String,
    },
    /// Micro: the announcement of a number of moves (the first ends the race), for the
    /// mission named (if named: a mission over by the time it arrives refuses it).
    Announce {
        moves: u32,
        #[serde(default)]
        mission: Option<u32>,
    },
    /// Ricochet: a hint of the solver's, level 1 to 3, for the asker only.
    Hint {
        level: u8,
    },
}

/// Where the answer to a player's message goes.
pub type Reply = oneshot::Sender<Result<Option<Value>, String>>;

/// What the room's thread is asked.
pub enum Command {
    Join(i64),
    Leave(i64),
    Act {
        account: i64,
        name: String,
        message: Message,
        reply: Reply,
    },
    /// The game as a match file, once over.
    MatchFile(oneshot::Sender<Option<String>>),
}

/// What the room shows, as of its last change.
#[derive(Debug, Default)]
pub struct Published {
    /// Each seat's account, in seat order.
    pub seated: Vec<Option<i64>>,
    /// Each seat's colour.
    pub colours: Vec<&'static str>,
    /// Connections open to the room.
    pub connections: usize,
    /// Each seat's view, then a spectator's.
    pub views: Vec<Arc<str>>,
    pub spectator: Arc<str>,
    pub playing: bool,
}

impl Published {
    /// The view for `account`.
    pub fn view_for(&self, account: i64) -> Arc<str> {
        self.seated
            .iter()
            .position(|s| *s == Some(account))
            .and_then(|i| self.views.get(i).cloned())
            .unwrap_or_else(|| Arc::clone(&self.spectator))
    }
}

pub struct Actor {
    pub battle: Battle,
    pub db: Arc<Db>,
    pub online: HashMap<i64, usize>,
    pub away_since: Vec<Option<Instant>>,
    pub publish: watch::Sender<Arc<Published>>,
    pub saved_turn: u64,
    /// The server's stop and the game's own end (it moved to another server).
    pub halt: Halt,
}

impl Actor {
    fn seat_of(&self, account: i64) -> Option<usize> {
        self.battle
            .seats
            .iter()
            .position(|s| s.player.as_ref().is_some_and(|p| p.0 == account))
    }

    fn computer(&self) -> Vec<bool> {
        let timeout = Duration::from_secs(u64::from(self.battle.room.settings.timeout));
        self.away_since
            .iter()
            .map(|a| a.is_some_and(|t| t.elapsed() >= timeout))
            .collect()
    }

    fn online_seats(&self) -> Vec<bool> {
        self.battle
            .seats
            .iter()
            .map(|s| {
                s.player
                    .as_ref()
                    .is_some_and(|p| self.online.get(&p.0).copied().unwrap_or(0) > 0)
            })
            .collect()
    }

    /// Computes and sends every view.
    pub fn publish(&self) {
        let (online, computer) = (self.online_seats(), self.computer());
        let view = |seat| {
            let mut v = self.battle.state(Viewer { seat }, &online, &computer);
            v["seat"] = json!(seat.map(robots_games::battle::terrain::TeamColour::name));
            Arc::<str>::from(v.to_string())
        };
        let published = Published {
            colours: self.battle.seats.iter().map(|s| colour(s).name()).collect(),
            connections: self.online.values().sum(),
            seated: self
                .battle
                .seats
                .iter()
                .map(|s| s.player.as_ref().map(|p| p.0))
                .collect(),
            views: self
                .battle
                .seats
                .iter()
                .map(|s| view(Some(colour(s))))
                .collect(),
            spectator: view(None),
            playing: self.battle.room.state != "writing",
        };
        self.publish.send_replace(Arc::new(published));
    }

    /// Stores seat `i`: refused only when the room moved to another server (the game ends).
    fn save_seat(&self, i: usize) -> Result<(), String> {
        let (fence, seat) = (self.battle.room.fence(), self.battle.seats[i].clone());
        let written = self.db.write(|c| store::set_seat(c, fence, &seat));
        Ok(self.halt.wrote(written, "seat")?)
    }

    /// Stores the state, the turn, the pause and pace: refused only when the room moved to
    /// another server (the game ends).
    fn save_state(&mut self) -> Result<(), String> {
        let state = if self.battle.is_over() {
            "over"
        } else {
            self.battle.room.state.as_str()
        }
        .to_string();
        self.battle.room.state.clone_from(&state);
        let (fence, turn) = (self.battle.room.fence(), self.battle.turn());
        self.saved_turn = turn;
        let host = (self.battle.paused, self.battle.pace);
        let written = self
            .db
            .write(|c| store::set_state(c, fence, (&state, turn), host));
        Ok(self.halt.wrote(written, "state")?)
    }

    /// Applies a decision and stores it (before the next one is taken), with seat `seat` as
    /// it stands then (in one transaction: a signal sent and its seat unarmed).
    fn decide(
        &mut self,
        by: robots_games::battle::terrain::TeamColour,
        action: Action,
        seat: Option<usize>,
    ) -> Result<(), String> {
        let action = match action {
            Action::Signal { robot, step, .. } => Action::Signal {
                turn: self.battle.turn(),
                robot,
                step,
            },
            Action::Skip { .. } => Action::Skip {
                turn: self.battle.turn(),
            },
            place => place,
        };
        self.battle.apply(by, &action).map_err(|e| e.to_string())?;
        let (fence, text) = (
            self.battle.room.fence(),
            serde_json::to_string(&action).unwrap_or_default(),
        );
        let seat = seat.map(|i| self.battle.seats[i].clone());
        match self
            .db
            .write(|c| store::push_action(c, fence, &text, seat.as_ref()))
        {
            Ok(()) => {}
            Err(e @ crate::db::DbError::Fenced) => {
                return Ok(self.halt.wrote(Err::<(), _>(e), "decision")?);
            }
            Err(e) => {
                tracing::error!(error = %e, "a room's decision cannot be stored");
                return Err("the server cannot store that now".to_string());
            }
        }
        // The decision is stored: the state after it is stored as it can be.
        let _ = self.save_state();
        Ok(())
    }

    /// The messages of the writing phase: a seat, a program, ready.
    fn act_writing(
        &mut self,
        account: i64,
        name: &str,
        message: Message,
    ) -> Result<Option<Value>, String> {
        let writing = self.battle.room.state == "writing";
        let seat = self.seat_of(account);
        match message {
            Message::Sit { colour: wanted } => {
                let i = self
                    .battle
                    .seats
                    .iter()
                    .position(|s| s.colour == wanted)
                    .ok_or("no such seat")?;
                if !writing || seat.is_some() || self.battle.seats[i].player.is_some() {
                    return Err("that seat cannot be taken now".into());
                }
                self.battle.seats[i].player = Some((account, name.to_string()));
                self.save_seat(i)?;
            }
            Message::Program { source } => {
                let i = seat
                    .filter(|_| writing)
                    .ok_or("take a seat first, before the game starts")?;
                crate::api::fits(&source).map_err(|e| e.detail)?;
                let (ok, diagnostics) =
                    crate::api::check_program(&source, robots_games::battle::lang::Keywords::Plain);
                if !ok {
                    return Ok(Some(
                        json!({"type": "diagnostics", "diagnostics": diagnostics}),
                    ));
                }
                self.battle.seats[i].source = Some(source);
                self.battle.seats[i].ready = false;
                self.save_seat(i)?;
                return Ok(Some(
                    json!({"type": "diagnostics", "diagnostics": diagnostics}),
                ));
            }
            Message::Ready { ready } => {
                let i = seat
                    .filter(|_| writing)
                    .ok_or("take a seat first, before the game starts")?;
                if ready && self.battle.seats[i].source.is_none() {
                    return Err("send your program first".into());
                }
                self.battle.seats[i].ready = ready;
                self.save_seat(i)?;
            }
            _ => return Err("not a message of the writing phase".into()),
        }
        Ok(None)
    }

    fn act(&mut self, account: i64, name: &str, message: Message) -> Result<Option<Value>, String> {
        let writing = self.battle.room.state == "writing";
        let host = self.battle.room.host == account;
        let seat = self.seat_of(account);
        let seat_colour = seat.map(|i| colour(&self.battle.seats[i]));
        match message {
            Message::Sit { .. } | Message::Program { .. } | Message::Ready { .. } => {
                return self.act_writing(account, name, message);
            }
            Message::Start => {
                if !host || !writing {
                    return Err("the host starts the game, once".into());
                }
                if !self
                    .battle
                    .seats
                    .iter()
                    .all(|s: &Seat| s.player.is_some() && s.source.is_some() && s.ready)
                {
                    return Err("every seat needs a player with a program, ready".into());
                }
                self.battle.start().map_err(|e| e.to_string())?;
                self.battle.room.state = "playing".into();
                self.save_state()?;
            }
            Message::Place { at, facing } => self.decide(
                seat_colour.ok_or("you have no seat")?,
                Action::Place { at, facing },
                None,
            )?,
            Message::Signal { robot, step } => {
                let i = seat
                    .filter(|_| self.battle.table.is_some() && !self.battle.is_over())
                    .ok_or("a player signals while the match plays")?;
                let name = robots_games::battle::engine::RobotName::parse(&robot)
                    .map_err(|e| e.to_string())?;
                if Some(name.team) != seat_colour {
                    return Err("a player signals one of their own robots (R-A13)".into());
                }
                self.battle.seats[i].armed = Some((robot, step));
                self.save_seat(i)?;
            }
            Message::Skip => {
                let i = seat.ok_or("you have no seat")?;
                self.battle.seats[i].armed = None;
                self.save_seat(i)?;
            }
            Message::Pace { turns_per_second } if host => {
                if !(0.1..=MAX_PACE).contains(&turns_per_second) {
                    return Err(format!("a pace is 0.1 to {MAX_PACE} turns a second"));
                }
                self.battle.pace = turns_per_second;
                self.save_state()?;
            }
            Message::Pause if host => {
                self.battle.paused = true;
                self.save_state()?;
            }
            Message::Resume if host => {
                self.battle.paused = false;
                self.save_state()?;
            }
            Message::Pace { .. } | Message::Pause | Message::Resume => {
                return Err("the host sets the pace".into());
            }
            Message::Bid { .. }
            | Message::Pass
            | Message::Show { .. }
            | Message::Announce { .. }
            | Message::Hint { .. } => {
                return Err("this room plays the battle game".into());
            }
        }
        Ok(None)
    }

    /// A signal window: the player's armed signal is sent (stored with its seat unarmed, in
    /// one transaction: sent once), or none is (a window with no decision stored is a skip
    /// when the game is played again; a signal the rules refuse is dropped).
    fn signal_window(&mut self) -> bool {
        let Some(robots_games::battle::live::hot_seat::Phase::Signal { team, .. }) =
            self.battle.phase()
        else {
            return false;
        };
        let seat = self.battle.seats.iter().position(|s| colour(s) == team);
        let armed = seat.and_then(|i| self.battle.seats[i].armed.take());
        let was_armed = armed.is_some();
        let sent = armed.is_some_and(|(robot, step)| {
            let signal = Action::Signal {
                turn: 0,
                robot,
                step,
            };
            match self.decide(team, signal, seat) {
                Ok(()) => true,
                Err(e) => {
                    tracing::debug!(error = %e, "an armed signal is refused");
                    false
                }
            }
        });
        if self.halt.ended() {
            return false;
        }
        if !sent {
            if let Some(i) = seat
                && was_armed
            {
                let _ = self.save_seat(i);
            }
            let _ = self.battle.apply(team, &Action::Skip { turn: 0 });
        }
        true
    }

    /// The player the game waits for is away too long: the computer decides for them.
    fn stand_in(&mut self) -> bool {
        let Some(waiting) = self.battle.waiting_for() else {
            return false;
        };
        let computer = self.computer();
        let Some(i) = self.battle.seats.iter().position(|s| colour(s) == waiting) else {
            return false;
        };
        if !computer[i] {
            return false;
        }
        match self.battle.computer_action() {
            Some(action) => self.decide(waiting, action, None).is_ok(),
            None => false,
        }
    }

    fn presence(&mut self) {
        let online = self.online_seats();
        for (i, on) in online.into_iter().enumerate() {
            match (on, self.away_since[i]) {
                (true, _) => self.away_since[i] = None,
                (false, None) => self.away_since[i] = Some(Instant::now()),
                (false, Some(_)) => {}
            }
        }
    }

    /// Takes commands and plays the match until the server stops (or the game moves to
    /// another server: then it writes nothing more).
    pub fn run(mut self, commands: &Receiver<Command>) {
        let mut next_step = Instant::now();
        let mut empty_since = Instant::now();
        self.presence();
        self.publish();
        while !self.halt.stopped() {
            if self.online.values().any(|&n| n > 0) {
                empty_since = Instant::now();
            }
            let under_way = self.battle.table.is_some() && !self.battle.is_over();
            if !under_way && empty_since.elapsed() > IDLE {
                break;
            }
            let playing =
                self.battle.table.is_some() && !self.battle.paused && !self.battle.is_over();
            let wait = if playing {
                next_step.saturating_duration_since(Instant::now())
            } else {
                Duration::from_millis(500)
            };
            let mut changed = match commands.recv_timeout(wait.min(Duration::from_millis(500))) {
                Ok(Command::Join(a)) => {
                    *self.online.entry(a).or_default() += 1;
                    true
                }
                Ok(Command::Leave(a)) => {
                    let n = self.online.entry(a).or_default();
                    *n = n.saturating_sub(1);
                    true
                }
                Ok(Command::Act {
                    account,
                    name,
                    message,
                    reply,
                }) => {
                    let answer = self.act(account, &name, message);
                    // The new state is published before the answer: a client that hears
                    // its answer has the state it made.
                    if answer.is_ok() {
                        self.presence();
                        self.publish();
                    }
                    let _ = reply.send(answer);
                    false
                }
                Ok(Command::MatchFile(reply)) => {
                    let _ = reply.send(self.battle.match_file());
                    false
                }
                Err(RecvTimeoutError::Timeout) => false,
                Err(RecvTimeoutError::Disconnected) => break,
            };
            self.presence();
            changed |= self.stand_in();
            changed |= self.signal_window();
            if playing && Instant::now() >= next_step {
                if self.battle.step() {
                    changed = true;
                    if self.battle.turn() >= self.saved_turn + SAVE_EVERY || self.battle.is_over() {
                        let _ = self.save_state();
                    }
                }
                next_step = Instant::now()
                    + Duration::from_secs_f64(1.0 / self.battle.pace.clamp(0.1, MAX_PACE));
            }
            if changed && !self.halt.ended() {
                self.publish();
            }
        }
        if !self.halt.ended() {
            let _ = self.save_state();
        }
    }
}
