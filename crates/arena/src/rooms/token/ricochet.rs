//! A Ricochet Robots room (docs/ROOMS.md, "Ricochet Robots in a room"): the game of
//! `robots ricochet play` (`ricochet::play::game`) played on the room's thread, its humans
//! the room's seats. The game asks (`Humans`): the room answers with the players' bids,
//! passes and demonstrations as they come, on a real clock; each answer is stored, and a
//! restarted room plays the game again with the stored answers, then goes on live. Nothing
//! secret is sent: the fewest moves the game knows are never in a view.

use super::table::{Stopped, Table};
use crate::db::ids::AccountId;
use crate::rooms::live::{Asked, Parts};
use crate::rooms::protocol::{
    self, Answer as Sent, Bidder, Clock, Message, RicochetPhase, RicochetResult, RicochetState,
    Target,
};
use crate::rooms::store::{RoomRow, RoomState};
use robots_games::ricochet::board::Board;
use robots_games::ricochet::play::game::{Game, Heard, Humans, Kind, Player, SEARCH_LIMIT, Timer};
use robots_games::ricochet::play::record::{Note, Quit};
use robots_games::ricochet::position::{Move, Position, parse_moves};
use robots_games::ricochet::solve::Solution;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// How long a demonstration may take before it fails.
const SHOW_SECONDS: f64 = 180.0;

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

/// The room: its table, and the game as its pages see it.
struct Room {
    t: Table,
    v: View,
    script: VecDeque<Answer>,
}

/// The game as the pages see it.
struct View {
    phase: RicochetPhase,
    round: u32,
    svg: String,
    target: Option<String>,
    shown: Instant,
    offset: f64,
    timer: Option<Timer>,
    /// Each seat's bid standing this round, and whether it passed.
    bids: Vec<Option<u32>>,
    passed: Vec<bool>,
    showing: Option<(usize, u32)>,
    log: VecDeque<String>,
    result: Option<RicochetResult>,
    /// The round's position, and an optimal solution once a hint was asked.
    position: Option<Position>,
    best: Option<Solution>,
}

impl View {
    fn now(&self) -> f64 {
        self.offset + self.shown.elapsed().as_secs_f64()
    }

    fn state(&self, t: &Table, seat: Option<usize>) -> String {
        // The clock as the state is sent (a page that joins late counts down from here).
        let now = if self.phase == RicochetPhase::Bidding {
            self.now()
        } else {
            self.timer.as_ref().map_or(0.0, |t| t.now)
        };
        let timer = self.timer.as_ref().map(|t| Clock {
            now,
            runs_out: t.runs_out,
            turned: Some(t.turned),
        });
        protocol::text(&RicochetState {
            seat: seat.map(|i| t.seats[i].colour.as_str()),
            phase: self.phase,
            seats: t.seats_view(),
            round: self.round,
            svg: &self.svg,
            target: self.target.as_deref().map(|colour| Target { colour }),
            timer,
            bids: &self.bids,
            passed: &self.passed,
            showing: self.showing.map(|(i, bid)| Bidder {
                colour: &t.seats[i].colour,
                bid,
            }),
            log: &self.log,
            result: self.result.as_ref(),
        })
    }

    fn say(&mut self, line: String) {
        self.log.push_back(line);
        while self.log.len() > 200 {
            self.log.pop_front();
        }
    }

    /// The hint of `level` for the round's position: the fewest moves, the robots an optimal
    /// solution moves, or its first move.
    fn hint(&mut self, level: u8) -> Result<String, String> {
        if self.best.is_none()
            && let Some(position) = &self.position
        {
            self.best = robots_games::ricochet::solve::solve(position, SEARCH_LIMIT).ok();
        }
        let best = self.best.as_ref().ok_or("no hint for this target")?;
        if !(1..=3).contains(&level) {
            return Err("a hint's level is 1, 2 or 3".into());
        }
        Ok(best.hint(level))
    }
}

impl Room {
    /// Publishes the views, once the game stands where it stood: not while it is played
    /// again from its stored answers (the room's first views are those of where it stood).
    fn publish(&self) {
        if self.script.is_empty() {
            publish(&self.t, &self.v);
        }
    }

    /// The next action within `wait` (the views republished as people come and go).
    fn next(&mut self, wait: Duration) -> Option<Asked> {
        let Room { t, v, .. } = self;
        t.next(wait, &|t| publish(t, v))
    }

    /// A hint asked by `account` while bidding: the answer for them alone; everyone's log
    /// says that they asked.
    fn hint(&mut self, account: AccountId, level: u8) -> Result<Option<Sent>, String> {
        if !self.t.row.settings.hints {
            return Err("this room gives no hints".into());
        }
        let seat = self
            .t
            .seats
            .of(account)
            .ok_or("a seated player asks for hints")?;
        let text = self.v.hint(level)?;
        self.v.say(format!(
            "player {} asks for a hint (level {level})",
            self.t.seats[seat].colour
        ));
        self.publish();
        Ok(Some(Sent::Hint { level, text }))
    }
}

fn publish(t: &Table, v: &View) {
    t.publish(|seat| v.state(t, seat));
}

/// The game's humans: the room's seats.
struct Players(Rc<RefCell<Room>>);

impl Humans for Players {
    fn look(&mut self, round: u32, position: &Position) {
        let mut r = self.0.borrow_mut();
        let hints = r.t.row.settings.hints;
        let v = &mut r.v;
        v.round = round;
        v.svg = robots_games::ricochet::svg::position(position, &[]);
        v.target = position.goal.robot.map(|c| c.to_string());
        v.phase = RicochetPhase::Bidding;
        v.showing = None;
        v.timer = None;
        // Solved when a hint is asked (the game solved it for itself already).
        v.best = None;
        v.position = hints.then(|| position.clone());
        (v.shown, v.offset) = (Instant::now(), 0.0);
        r.publish();
    }

    fn wait(&mut self, timer: &Timer) -> Heard {
        let mut guard = self.0.borrow_mut();
        let r = &mut *guard;
        r.v.timer = Some(timer.clone());
        r.v.bids.clone_from(&timer.standing);
        if let Some(answer) = r.script.pop_front() {
            return match answer {
                Answer::Bid { at, player, moves } => Heard::Bid { at, player, moves },
                Answer::Pass { at, player } => {
                    r.v.passed[player] = true;
                    Heard::Pass { at, player }
                }
                _ => Heard::Nothing,
            };
        }
        if r.v.offset < timer.now && r.v.now() < timer.now {
            // Played again up to here: the clock goes on from the stored answers' time.
            (r.v.shown, r.v.offset) = (Instant::now(), timer.now);
        }
        r.publish();
        loop {
            if r.t.stopped() {
                return Heard::Quit(Quit::InputEnded);
            }
            let left = timer.until - r.v.now();
            if left <= 0.0 {
                let _ = r.t.store(&Answer::Nothing);
                return Heard::Nothing;
            }
            if let Some(player) = timer.waiting.iter().copied().find(|&i| r.t.seats.away(i)) {
                let at = r.v.now();
                r.v.passed[player] = true;
                let _ = r.t.store(&Answer::Pass { at, player });
                return Heard::Pass { at, player };
            }
            let Some(Asked {
                account,
                message,
                reply,
                ..
            }) = r.next(Duration::from_secs_f64(left.min(0.5)))
            else {
                continue;
            };
            let at = r.v.now();
            let seat = r.t.seats.of(account).filter(|i| timer.waiting.contains(i));
            let (answer, heard) = match (message, seat) {
                (Message::Bid { moves }, Some(player)) => (
                    Answer::Bid { at, player, moves },
                    Heard::Bid { at, player, moves },
                ),
                (Message::Pass, Some(player)) => {
                    r.v.passed[player] = true;
                    (Answer::Pass { at, player }, Heard::Pass { at, player })
                }
                (Message::Hint { level }, _) => {
                    let _ = reply.send(r.hint(account, level));
                    continue;
                }
                _ => {
                    let _ = reply.send(Err(
                        "a seated player still bidding bids or passes now".into()
                    ));
                    continue;
                }
            };
            let _ = reply.send(r.t.store(&answer).map(|()| None).map_err(String::from));
            return heard;
        }
    }

    fn late(&mut self, _ran_out: f64) -> Vec<(f64, usize, u32)> {
        let mut r = self.0.borrow_mut();
        if matches!(r.script.front(), Some(Answer::Late)) {
            r.script.pop_front();
        } else {
            let _ = r.t.store(&Answer::Late);
        }
        Vec::new()
    }

    fn demonstrate(&mut self, player: usize, _name: &str, bid: u32) -> Result<Vec<Move>, Quit> {
        let mut guard = self.0.borrow_mut();
        let r = &mut *guard;
        if let Some(Answer::Shown { moves }) = r.script.pop_front() {
            return Ok(parse_moves(&moves).unwrap_or_default());
        }
        r.v.phase = RicochetPhase::Showing;
        r.v.showing = Some((player, bid));
        r.publish();
        let Room { t, v, .. } = r;
        let shown = t
            .await_show(
                (player, SHOW_SECONDS),
                &|t| publish(t, v),
                |moves| parse_moves(moves).map_err(|e| e.to_string()),
                "the bidder shows their moves now",
            )
            .map_err(|Stopped| Quit::InputEnded)?;
        let (moves, parsed, reply) = match shown {
            Some((moves, parsed, reply)) => (moves, parsed, Some(reply)),
            None => (String::new(), Vec::new(), None),
        };
        let stored = r.t.store(&Answer::Shown { moves });
        if let Some(reply) = reply {
            let _ = reply.send(stored.map(|()| None).map_err(String::from));
        }
        Ok(parsed)
    }
}

/// The board of a room: the original quarters as the seed draws them, or a Ricochets board.
fn board(row: &RoomRow) -> Result<Board, String> {
    if row.settings.board == "ricochets" {
        robots_games::ricochet::generate::generate(
            &robots_games::ricochet::generate::Spec::default(),
            row.seed,
        )
        .map(|g| g.board)
        .map_err(|e| e.to_string())
    } else {
        Ok(robots_games::ricochet::play::game::original_board(row.seed))
    }
}

/// The room's thread: seating, then the game (played again from its stored answers), then
/// the end, until the server stops or nobody has been in it for a while.
pub fn run(parts: Parts) {
    let (t, actions) = Table::new(parts);
    let script = actions
        .iter()
        .filter_map(|a| serde_json::from_str(a).ok())
        .collect();
    let n = t.seats.len();
    let v = View {
        phase: RicochetPhase::Writing,
        round: 0,
        svg: String::new(),
        target: None,
        shown: Instant::now(),
        offset: 0.0,
        timer: None,
        showing: None,
        bids: vec![None; n],
        passed: vec![false; n],
        log: VecDeque::new(),
        result: None,
        position: None,
        best: None,
    };
    let room = Rc::new(RefCell::new(Room { t, v, script }));
    {
        let mut guard = room.borrow_mut();
        let Room { t, v, .. } = &mut *guard;
        if t.row.state == RoomState::Writing {
            publish(t, v);
        }
        if !t.seat_players(&|t| publish(t, v)) {
            return;
        }
    }
    let game = match new_game(&room.borrow().t) {
        Ok(g) => g,
        Err(e) => {
            tracing::error!(error = %e, "a Ricochet room's game cannot be set up");
            return;
        }
    };
    let log_room = Rc::clone(&room);
    let mut log = move |note: Note| keep(&mut log_room.borrow_mut(), &note);
    let outcome = game.play(&mut Players(Rc::clone(&room)), &mut log);
    let mut guard = room.borrow_mut();
    if guard.t.stopped() {
        return;
    }
    let Room { t, v, .. } = &mut *guard;
    v.phase = RicochetPhase::Over;
    v.showing = None;
    // The ruling that ended the game, when one did: R-B3, a whole pass with no token won.
    v.result = Some(RicochetResult {
        winners: outcome.winners,
        reason: outcome.reason,
        ruling: outcome.ruling,
    });
    t.linger(&|t| publish(t, v));
}

/// The game of a room: its board, its seats as the humans, its seed.
fn new_game(t: &Table) -> Result<Game, String> {
    let players = t
        .seats
        .iter()
        .map(|s| Player {
            name: s
                .player
                .as_ref()
                .map_or_else(String::new, |p| p.name.clone()),
            kind: Kind::Human,
            tokens: 0,
        })
        .collect();
    let rules = robots_games::ricochet::rules::Rules {
        must_ricochet: true,
        no_single_move: false,
    };
    Game::new(&board(&t.row)?, players, t.row.seed, rules).map_err(|e| e.to_string())
}

/// A note of the game: its words in the log (never the fewest moves: `Note::Target` keeps
/// them out of its words), the tokens won.
fn keep(r: &mut Room, note: &Note) {
    match note {
        Note::Target { round, .. } => {
            (r.v.round, r.v.phase, r.v.showing) = (*round, RicochetPhase::Bidding, None);
            r.v.bids.iter_mut().for_each(|b| *b = None);
            r.v.passed.iter_mut().for_each(|p| *p = false);
        }
        Note::Bid { player, moves, .. } => {
            if let Some(i) = r.t.seats.named(player) {
                r.v.bids[i] = Some(*moves);
            }
        }
        Note::Wins { player, tokens, .. } => {
            if let Some(i) = r.t.seats.named(player) {
                r.t.tokens[i] = *tokens;
            }
        }
        _ => {}
    }
    for line in note.to_string().lines() {
        r.v.say(line.to_string());
    }
    // A new target is published with its picture, by `look`.
    if !matches!(note, Note::Target { .. }) {
        r.publish();
    }
}
