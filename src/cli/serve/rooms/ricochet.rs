//! A Ricochet Robots room (docs/ROOMS.md, "Ricochet Robots in a room"): the game of
//! `robots ricochet play` (`ricochet::play::game`) played on the room's thread, its humans
//! the room's seats. The game asks (`Humans`): the room answers with the players' bids,
//! passes and demonstrations as they come, on a real clock; each answer is stored, and a
//! restarted room plays the game again with the stored answers, then goes on live. Nothing
//! secret is sent: the fewest moves the game knows are never in a view.

use super::actor::{Command, Message, Published};
use super::store::{self, RoomRow, Seat};
use crate::cli::serve::db::Db;
use robots::ricochet::board::Board;
use robots::ricochet::play::game::{Game, Heard, Humans, Kind, Player, Timer};
use robots::ricochet::play::record::{Note, Quit};
use robots::ricochet::position::{Move, Position, parse_moves};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// How long a demonstration may take before it fails.
const SHOW_SECONDS: f64 = 180.0;

/// An action asked of the room: who, their name, the message, where the answer goes.
type Asked = (i64, String, Message, super::actor::Reply);

/// A stored answer of the humans, in the order the game asked.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum Answer {
    Bid { at: f64, player: usize, moves: u32 },
    Pass { at: f64, player: usize },
    Nothing,
    Late,
    Shown { moves: String },
}

/// The room as its pages see it, shared by the game's humans and its log.
struct Room {
    row: RoomRow,
    seats: Vec<Seat>,
    db: Arc<Db>,
    commands: Receiver<Command>,
    publish: watch::Sender<Arc<Published>>,
    stop: Arc<AtomicBool>,
    online: HashMap<i64, usize>,
    script: VecDeque<Answer>,
    phase: &'static str,
    round: u32,
    svg: String,
    target: Option<String>,
    shown: Instant,
    offset: f64,
    timer: Option<Timer>,
    /// Since when each seat's player has had no connection open.
    away_since: Vec<Option<Instant>>,
    /// Each seat's bid standing this round, and whether it passed.
    bids: Vec<Option<u32>>,
    passed: Vec<bool>,
    showing: Option<(usize, u32)>,
    tokens: Vec<u32>,
    log: VecDeque<String>,
    result: Option<Value>,
}

impl Room {
    fn now(&self) -> f64 {
        self.offset + self.shown.elapsed().as_secs_f64()
    }

    fn seat_of(&self, account: i64) -> Option<usize> {
        self.seats
            .iter()
            .position(|s| s.player.as_ref().is_some_and(|p| p.0 == account))
    }

    fn state(&self, seat: Option<usize>) -> Value {
        let seats: Vec<Value> = self
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let online = s.player.as_ref().is_some_and(|p| self.online.get(&p.0).copied().unwrap_or(0) > 0);
                json!({"colour": s.colour, "player": s.player.as_ref().map(|p| &p.1), "ready": s.ready,
                    "online": online, "computer": false, "tokens": self.tokens.get(i).copied().unwrap_or(0)})
            })
            .collect();
        // The clock as the state is sent (a page that joins late counts down from here).
        let now = if self.phase == "bidding" {
            self.now()
        } else {
            self.timer.as_ref().map_or(0.0, |t| t.now)
        };
        let timer = self
            .timer
            .as_ref()
            .map(|t| json!({"now": now, "runs_out": t.runs_out, "turned": t.turned}));
        let (bids, passed) = (&self.bids, &self.passed);
        json!({"type": "state", "seat": seat.map(|i| &self.seats[i].colour), "phase": self.phase, "seats": seats,
            "round": self.round, "svg": self.svg, "target": self.target.as_ref().map(|c| json!({"colour": c})),
            "timer": timer, "bids": bids, "passed": passed,
            "showing": self.showing.map(|(i, bid)| json!({"colour": self.seats[i].colour, "bid": bid})),
            "log": self.log, "result": self.result})
    }

    fn publish(&self) {
        let views: Vec<Arc<str>> = (0..self.seats.len())
            .map(|i| Arc::from(self.state(Some(i)).to_string()))
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
            spectator: Arc::from(self.state(None).to_string()),
            playing: self.row.state != "writing",
        }));
    }

    fn store(&self, answer: &Answer) {
        let (room, text) = (
            self.row.id,
            serde_json::to_string(answer).unwrap_or_default(),
        );
        if let Err(e) = self.db.write(|c| store::push_action(c, room, &text)) {
            tracing::error!(error = %e, "a room's answer cannot be stored");
        }
    }

    fn save(&mut self, state: &str) {
        state.clone_into(&mut self.row.state);
        let room = self.row.id;
        let state = state.to_string();
        if let Err(e) = self
            .db
            .write(|c| store::set_state(c, room, (&state, 0), (false, 0.0)))
        {
            tracing::error!(error = %e, "a room's state cannot be stored");
        }
    }

    fn save_seat(&self, i: usize) {
        let (room, seat) = (self.row.id, self.seats[i].clone());
        if let Err(e) = self.db.write(|c| store::set_seat(c, room, &seat)) {
            tracing::error!(error = %e, "a room's seat cannot be stored");
        }
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
                self.save_seat(i);
            }
            Message::Ready { ready } => {
                let i = seat.ok_or("take a seat first")?;
                self.seats[i].ready = ready;
                self.save_seat(i);
            }
            Message::Start => {
                if self.row.host != account {
                    return Err("the host starts the game".into());
                }
                if !self.seats.iter().all(|s| s.player.is_some() && s.ready) {
                    return Err("every seat needs a player, ready".into());
                }
                self.save("playing");
                return Ok(true);
            }
            _ => return Err("the game has not started".into()),
        }
        Ok(false)
    }

    /// Whether seat `i`'s player has been away longer than the room's timeout: the computer
    /// plays for them (it passes, and fails a demonstration).
    fn away(&mut self, i: usize) -> bool {
        let online = self.seats[i]
            .player
            .as_ref()
            .is_some_and(|p| self.online.get(&p.0).copied().unwrap_or(0) > 0);
        let since = *self.away_since[i].get_or_insert_with(Instant::now);
        if online {
            self.away_since[i] = None;
            return false;
        }
        since.elapsed() >= Duration::from_secs(u64::from(self.row.settings.timeout))
    }

    /// Takes the next command within `wait`: presence is handled here; an action is returned.
    fn next(&mut self, wait: Duration) -> Option<Asked> {
        match self.commands.recv_timeout(wait) {
            Ok(Command::Join(a)) => {
                *self.online.entry(a).or_default() += 1;
                self.publish();
                None
            }
            Ok(Command::Leave(a)) => {
                let n = self.online.entry(a).or_default();
                *n = n.saturating_sub(1);
                self.publish();
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
                self.stop.store(true, Ordering::Relaxed);
                None
            }
        }
    }
}

/// A Ricochet seat's name (its number), as the views name it.
fn seat_name(seat: &str) -> &'static str {
    match seat {
        "1" => "1",
        "2" => "2",
        "3" => "3",
        _ => "4",
    }
}

/// The game's humans: the room's seats.
struct Seats(Rc<RefCell<Room>>);

impl Humans for Seats {
    fn look(&mut self, round: u32, position: &Position) {
        let mut r = self.0.borrow_mut();
        r.round = round;
        r.svg = robots::ricochet::svg::position(position, &[]);
        r.target = position.goal.robot.map(|c| c.to_string());
        r.phase = "bidding";
        r.showing = None;
        r.timer = None;
        (r.shown, r.offset) = (Instant::now(), 0.0);
        r.publish();
    }

    fn wait(&mut self, timer: &Timer) -> Heard {
        let mut r = self.0.borrow_mut();
        r.timer = Some(timer.clone());
        r.bids.clone_from(&timer.standing);
        if let Some(answer) = r.script.pop_front() {
            return match answer {
                Answer::Bid { at, player, moves } => Heard::Bid { at, player, moves },
                Answer::Pass { at, player } => {
                    r.passed[player] = true;
                    Heard::Pass { at, player }
                }
                _ => Heard::Nothing,
            };
        }
        if r.offset < timer.now && r.now() < timer.now {
            // Played again up to here: the clock goes on from the stored answers' time.
            (r.shown, r.offset) = (Instant::now(), timer.now);
        }
        r.publish();
        loop {
            if r.stop.load(Ordering::Relaxed) {
                return Heard::Quit(Quit::InputEnded);
            }
            let left = timer.until - r.now();
            if left <= 0.0 {
                r.store(&Answer::Nothing);
                return Heard::Nothing;
            }
            if let Some(player) = timer.waiting.iter().copied().find(|&i| r.away(i)) {
                let at = r.now();
                r.passed[player] = true;
                r.store(&Answer::Pass { at, player });
                return Heard::Pass { at, player };
            }
            let Some((account, _, message, reply)) = r.next(Duration::from_secs_f64(left.min(0.5)))
            else {
                continue;
            };
            let at = r.now();
            let seat = r.seat_of(account).filter(|i| timer.waiting.contains(i));
            let (answer, heard) = match (message, seat) {
                (Message::Bid { moves }, Some(player)) => (
                    Answer::Bid { at, player, moves },
                    Heard::Bid { at, player, moves },
                ),
                (Message::Pass, Some(player)) => {
                    r.passed[player] = true;
                    (Answer::Pass { at, player }, Heard::Pass { at, player })
                }
                _ => {
                    let _ = reply.send(Err(
                        "a seated player still bidding bids or passes now".into()
                    ));
                    continue;
                }
            };
            r.store(&answer);
            let _ = reply.send(Ok(None));
            return heard;
        }
    }

    fn late(&mut self, _ran_out: f64) -> Vec<(f64, usize, u32)> {
        let mut r = self.0.borrow_mut();
        if matches!(r.script.front(), Some(Answer::Late)) {
            r.script.pop_front();
        } else {
            r.store(&Answer::Late);
        }
        Vec::new()
    }

    fn demonstrate(&mut self, player: usize, _name: &str, bid: u32) -> Result<Vec<Move>, Quit> {
        let mut r = self.0.borrow_mut();
        if let Some(Answer::Shown { moves }) = r.script.pop_front() {
            return Ok(parse_moves(&moves).unwrap_or_default());
        }
        r.phase = "showing";
        r.showing = Some((player, bid));
        r.publish();
        let until = Instant::now() + Duration::from_secs_f64(SHOW_SECONDS);
        loop {
            if r.stop.load(Ordering::Relaxed) {
                return Err(Quit::InputEnded);
            }
            let now = Instant::now();
            if now >= until || r.away(player) {
                r.store(&Answer::Shown {
                    moves: String::new(),
                });
                return Ok(Vec::new());
            }
            let Some((account, _, message, reply)) =
                r.next((until - now).min(Duration::from_millis(500)))
            else {
                continue;
            };
            match message {
                Message::Show { moves } if r.seat_of(account) == Some(player) => {
                    match parse_moves(&moves) {
                        Ok(parsed) => {
                            r.store(&Answer::Shown {
                                moves: moves.clone(),
                            });
                            let _ = reply.send(Ok(None));
                            return Ok(parsed);
                        }
                        Err(e) => {
                            let _ = reply.send(Err(e.to_string()));
                        }
                    }
                }
                _ => {
                    let _ = reply.send(Err("the bidder shows their moves now".into()));
                }
            }
        }
    }
}

/// The board of a room: the original quarters as the seed draws them, or a Ricochets board.
fn board(row: &RoomRow) -> Result<Board, String> {
    if row.settings.board == "ricochets" {
        robots::ricochet::generate::generate(&robots::ricochet::generate::Spec::default(), row.seed)
            .map(|g| g.board)
            .map_err(|e| e.to_string())
    } else {
        Ok(robots::ricochet::play::game::original_board(row.seed))
    }
}

/// The room's thread: seating, then the game (played again from its stored answers), then
/// the end, until the server stops or nobody has been in it for a while.
pub fn run(
    (row, seats, actions): (RoomRow, Vec<Seat>, Vec<String>),
    db: Arc<Db>,
    publish: watch::Sender<Arc<Published>>,
    commands: Receiver<Command>,
    stop: Arc<AtomicBool>,
) {
    let script = actions
        .iter()
        .filter_map(|a| serde_json::from_str(a).ok())
        .collect();
    let n = seats.len();
    let room = Rc::new(RefCell::new(Room {
        row,
        seats,
        db,
        commands,
        publish,
        stop: Arc::clone(&stop),
        online: HashMap::new(),
        script,
        phase: "writing",
        round: 0,
        svg: String::new(),
        target: None,
        shown: Instant::now(),
        offset: 0.0,
        timer: None,
        showing: None,
        tokens: vec![0; n],
        away_since: vec![None; n],
        bids: vec![None; n],
        passed: vec![false; n],
        log: VecDeque::new(),
        result: None,
    }));
    room.borrow_mut().publish();
    if !seat_players(&room, &stop) {
        return;
    }
    let game = match new_game(&room.borrow()) {
        Ok(g) => g,
        Err(e) => {
            tracing::error!(error = %e, "a Ricochet room's game cannot be set up");
            return;
        }
    };
    let log_room = Rc::clone(&room);
    let mut log = move |note: Note| keep(&mut log_room.borrow_mut(), &note);
    let outcome = game.play(&mut Seats(Rc::clone(&room)), &mut log);
    if stop.load(Ordering::Relaxed) {
        return;
    }
    over(&mut room.borrow_mut(), &outcome, &stop);
}

/// Seats the players until the host starts; `false` when the server stops first.
fn seat_players(room: &Rc<RefCell<Room>>, stop: &AtomicBool) -> bool {
    let mut r = room.borrow_mut();
    let mut empty_since = Instant::now();
    while r.row.state == "writing" {
        if stop.load(Ordering::Relaxed) || empty_since.elapsed() > super::actor::IDLE {
            return false;
        }
        if r.online.values().any(|&n| n > 0) {
            empty_since = Instant::now();
        }
        let Some((account, name, message, reply)) = r.next(Duration::from_millis(500)) else {
            continue;
        };
        let answer = r.seating(account, &name, message);
        if answer.is_ok() {
            r.publish();
        }
        let _ = reply.send(answer.map(|_| None));
    }
    r.row.state != "over"
}

/// The game of a room: its board, its seats as the humans, its seed.
fn new_game(r: &Room) -> Result<Game, String> {
    let players = r
        .seats
        .iter()
        .map(|s| Player {
            name: s.player.as_ref().map_or_else(String::new, |p| p.1.clone()),
            kind: Kind::Human,
            tokens: 0,
        })
        .collect();
    let rules = robots::ricochet::rules::Rules {
        must_ricochet: true,
        no_single_move: false,
    };
    Game::new(&board(&r.row)?, players, r.row.seed, rules).map_err(|e| e.to_string())
}

/// A note of the game: its words in the log (never the fewest moves: `Note::Target` keeps
/// them out of its words), the tokens won.
fn keep(r: &mut Room, note: &Note) {
    match note {
        Note::Target { round, .. } => {
            (r.round, r.phase, r.showing) = (*round, "bidding", None);
            r.bids.iter_mut().for_each(|b| *b = None);
            r.passed.iter_mut().for_each(|p| *p = false);
        }
        Note::Bid { player, moves, .. } => {
            if let Some(i) = r
                .seats
                .iter()
                .position(|s| s.player.as_ref().is_some_and(|p| &p.1 == player))
            {
                r.bids[i] = Some(*moves);
            }
        }
        _ => {}
    }
    if let Note::Wins { player, tokens, .. } = note
        && let Some(i) = r
            .seats
            .iter()
            .position(|s| s.player.as_ref().is_some_and(|p| &p.1 == player))
    {
        r.tokens[i] = *tokens;
    }
    for line in note.to_string().lines() {
        r.log.push_back(line.to_string());
    }
    while r.log.len() > 200 {
        r.log.pop_front();
    }
    r.publish();
}

/// The end: the result for everyone; the room stays open while anyone is in it.
fn over(r: &mut Room, outcome: &robots::ricochet::play::game::Outcome, stop: &AtomicBool) {
    r.phase = "over";
    r.showing = None;
    r.result = Some(json!({"winners": outcome.winners, "reason": outcome.reason}));
    r.save("over");
    r.publish();
    let mut empty_since = Instant::now();
    while !stop.load(Ordering::Relaxed) && empty_since.elapsed() < super::actor::IDLE {
        if let Some((_, _, _, reply)) = r.next(Duration::from_millis(500)) {
            let _ = reply.send(Err("the game is over".into()));
        }
        if r.online.values().any(|&n| n > 0) {
            empty_since = Instant::now();
        }
    }
}
