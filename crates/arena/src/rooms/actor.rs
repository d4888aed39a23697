//! The battle game's room on its own thread (the table of `robots play` is not shared
//! between threads): it owns the game, takes the players' messages in order, plays the match
//! at the room's pace, plays for a player away longer than the timeout, stores every
//! decision, and publishes after each change what each seat, and a spectator, may see.

use super::battle::{Action, Battle, Viewer, colour};
use super::live::{Asked, Command, Halt, Parts, Published};
use super::protocol::{Answer, Message};
use super::room::{Armed, Player, RoomState};
use super::seats::{Idle, Received, SitError};
use super::store;
use crate::db::Db;
use std::sync::Arc;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// The fastest pace, in robot turns a second.
pub const MAX_PACE: f64 = 500.0;
/// Steps between two writes of the turn reached.
const SAVE_EVERY: u64 = 25;

pub struct Actor {
    battle: Battle,
    db: Arc<Db>,
    publish: watch::Sender<Arc<Published>>,
    saved_turn: u64,
    /// The server's stop and the game's own end (it moved to another server).
    halt: Halt,
}

impl Actor {
    /// The room's game played again from its stored decisions, and its thread's channels.
    pub fn new(parts: Parts) -> (Actor, Receiver<Command>) {
        let battle = Battle::rebuild(parts.row, parts.seats, &parts.actions);
        let actor = Actor {
            saved_turn: battle.turn(),
            battle,
            db: parts.db,
            publish: parts.publish,
            halt: parts.halt,
        };
        (actor, parts.commands)
    }

    /// Computes and sends every view.
    pub fn publish(&self) {
        let view = |seat| Arc::<str>::from(self.battle.view(Viewer { seat }));
        let views = self
            .battle
            .seats
            .iter()
            .map(|s| view(Some(colour(s))))
            .collect();
        let playing = self.battle.room.state != RoomState::Writing;
        let published = self.battle.seats.published(views, view(None), playing);
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
            RoomState::Over
        } else {
            self.battle.room.state
        };
        self.battle.room.state = state;
        let (fence, turn) = (self.battle.room.fence(), self.battle.turn());
        self.saved_turn = turn;
        let host = (self.battle.paused, self.battle.pace);
        let written = self
            .db
            .write(|c| store::set_state(c, fence, (state, turn), host));
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
    fn act_writing(&mut self, player: Player, message: Message) -> Result<Option<Answer>, String> {
        let writing = self.battle.room.state == RoomState::Writing;
        let seat = self.battle.seats.of(player.account);
        match message {
            Message::Sit { colour: wanted } => {
                let i = self
                    .battle
                    .seats
                    .sit(&wanted, player, writing)
                    .map_err(|e| match e {
                        SitError::NoSuchSeat => "no such seat",
                        SitError::Taken => "that seat cannot be taken now",
                    })?;
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
                    return Ok(Some(Answer::Diagnostics { diagnostics }));
                }
                self.battle.seats[i].source = Some(source);
                self.battle.seats[i].ready = false;
                self.save_seat(i)?;
                return Ok(Some(Answer::Diagnostics { diagnostics }));
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

    fn act(&mut self, player: Player, message: Message) -> Result<Option<Answer>, String> {
        let writing = self.battle.room.state == RoomState::Writing;
        let host = self.battle.room.host == player.account;
        let seat = self.battle.seats.of(player.account);
        let seat_colour = seat.map(|i| colour(&self.battle.seats[i]));
        match message {
            Message::Sit { .. } | Message::Program { .. } | Message::Ready { .. } => {
                return self.act_writing(player, message);
            }
            Message::Start => {
                if !host || !writing {
                    return Err("the host starts the game, once".into());
                }
                if !self
                    .battle
                    .seats
                    .iter()
                    .all(|s| s.player.is_some() && s.source.is_some() && s.ready)
                {
                    return Err("every seat needs a player with a program, ready".into());
                }
                self.battle.start().map_err(|e| e.to_string())?;
                self.battle.room.state = RoomState::Playing;
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
                self.battle.seats[i].armed = Some(Armed { robot, step });
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
        let sent = armed.is_some_and(|Armed { robot, step }| {
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
        let Some(i) = self.battle.seats.iter().position(|s| colour(s) == waiting) else {
            return false;
        };
        if !self.battle.seats.computer(i) {
            return false;
        }
        match self.battle.computer_action() {
            Some(action) => self.decide(waiting, action, None).is_ok(),
            None => false,
        }
    }

    /// Takes commands and plays the match until the server stops (or the game moves to
    /// another server: then it writes nothing more).
    pub fn run(mut self, commands: &Receiver<Command>) {
        let mut next_step = Instant::now();
        let mut idle = Idle::default();
        self.battle.seats.presence();
        self.publish();
        while !self.halt.stopped() {
            let idle_too_long = idle.too_long(&self.battle.seats);
            let under_way = self.battle.table.is_some() && !self.battle.is_over();
            if !under_way && idle_too_long {
                break;
            }
            let playing =
                self.battle.table.is_some() && !self.battle.paused && !self.battle.is_over();
            let wait = if playing {
                next_step.saturating_duration_since(Instant::now())
            } else {
                Duration::from_millis(500)
            };
            let wait = wait.min(Duration::from_millis(500));
            let mut changed = match self.battle.seats.receive(commands, wait) {
                Received::Presence => true,
                Received::Asked(Asked {
                    account,
                    name,
                    message,
                    reply,
                }) => {
                    let answer = self.act(Player { account, name }, message);
                    // The new state is published before the answer: a client that hears
                    // its answer has the state it made.
                    if answer.is_ok() {
                        self.battle.seats.presence();
                        self.publish();
                    }
                    let _ = reply.send(answer);
                    false
                }
                Received::MatchFile(reply) => {
                    let _ = reply.send(self.battle.match_file());
                    false
                }
                Received::Nothing => false,
                Received::Closed => break,
            };
            self.battle.seats.presence();
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
