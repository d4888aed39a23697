//! A Micro Robots room (docs/ROOMS.md, "Micro Robots in a room"): the game of `robots micro
//! play` (`micro::game`, RULES C.1) played on the room's thread, its humans the room's seats.
//! The game asks each player in turn whether they announce; in a room everyone searches at
//! once, so the first question of a mission runs the race live (the first announcement
//! wins it; passes, the players away and the mission's time end it with nobody) and the
//! others are answered from its result. The announcer shows the cells the robot stops on,
//! checked by the game. Each race and demonstration is stored; a restarted room plays the
//! game again with them, then goes on live. The fewest moves are never in a view.

use super::table::{Stopped, Table};
use crate::rooms::live::{Asked, Parts};
use crate::rooms::protocol::{
    self, Announcer, Clock, Message, MicroPhase, MicroResult, MicroState,
};
use crate::rooms::store::RoomState;
use robots_games::micro::board::{Board, Cell};
use robots_games::micro::game::{
    Game, Humans, Kind, MISSION_SECONDS, Player, Quit, TOKENS, Variant,
};
use robots_games::micro::record::Note;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// How long a demonstration may take before it fails.
const SHOW_SECONDS: f64 = 180.0;
/// The most cells a demonstration may name.
const MAX_STOPS: usize = 64;

/// A stored answer of the players, in the order the game asked.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum Answer {
    /// A mission's race: who announced first, when and what (`player` none: nobody did).
    Race {
        player: Option<usize>,
        at: f64,
        moves: u32,
    },
    /// The announcer's demonstration: the cells stopped on, as shown.
    Shown { stops: String },
}

/// The room: its table, and the game as its pages see it.
struct Room {
    t: Table,
    v: View,
    script: VecDeque<Answer>,
}

/// The game as the pages see it.
struct View {
    board: Board,
    phase: MicroPhase,
    mission: u32,
    oya: Option<usize>,
    start: Option<Cell>,
    via: Option<Cell>,
    target: Option<Cell>,
    token: bool,
    /// The path drawn on the board: the last mission's, when it was won (it ends on the
    /// robot's start), kept in `won` until the next mission.
    path: Vec<Cell>,
    won: Vec<Cell>,
    svg: String,
    /// When the mission's dice were rolled.
    rolled: Instant,
    passed: Vec<bool>,
    showing: Option<(usize, u32)>,
    reserve: u32,
    /// This mission's race, once run: the announcer, when, and the moves announced.
    race: Option<Option<(usize, f64, u32)>>,
    log: VecDeque<String>,
    result: Option<MicroResult>,
}

impl View {
    fn draw(&mut self) {
        let marks = robots_games::micro::svg::Marks {
            start: self.start,
            via: self.via,
            target: self.target,
            path: &self.path,
        };
        self.svg = robots_games::micro::svg::mission(&self.board, &marks);
    }

    fn state(&self, t: &Table, seat: Option<usize>) -> String {
        let name = |c: Option<Cell>| c.map(|c| c.to_string());
        let colour = |i: usize| t.seats[i].colour.as_str();
        let timer = (self.phase == MicroPhase::Racing).then(|| Clock {
            now: self.rolled.elapsed().as_secs_f64(),
            runs_out: Some(MISSION_SECONDS),
            turned: None,
        });
        protocol::text(&MicroState {
            seat: seat.map(colour),
            phase: self.phase,
            seats: t.seats_view(),
            mission: self.mission,
            oya: self.oya.map(colour),
            start: name(self.start),
            via: name(self.via),
            target: name(self.target),
            token: self.token,
            svg: &self.svg,
            timer,
            passed: &self.passed,
            showing: self.showing.map(|(i, moves)| Announcer {
                colour: colour(i),
                moves,
            }),
            reserve: self.reserve,
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
}

fn publish(t: &Table, v: &View) {
    t.publish(|seat| v.state(t, seat));
}

impl Room {
    /// Publishes the views, once the game stands where it stood: not while it is played
    /// again from its stored answers (the room's first views are those of where it stood).
    fn publish(&self) {
        if self.script.is_empty() {
            publish(&self.t, &self.v);
        }
    }

    fn next(&mut self, wait: Duration) -> Option<Asked> {
        let Room { t, v, .. } = self;
        t.next(wait, &|t| publish(t, v))
    }

    /// The mission's race: stored (played again), or run live until the first announcement,
    /// everyone's pass (a player away passes), or the end of the mission's time.
    fn race(&mut self) -> Result<Option<(usize, f64, u32)>, Quit> {
        if let Some(Answer::Race { player, at, moves }) = self.script.front().cloned() {
            self.script.pop_front();
            return Ok(player.map(|p| (p, at, moves)));
        }
        self.publish();
        let nobody = |r: &mut Room| {
            let at = r.v.rolled.elapsed().as_secs_f64();
            let _ = r.t.store(&Answer::Race {
                player: None,
                at,
                moves: 0,
            });
            Ok(None)
        };
        loop {
            if self.t.stopped() {
                return Err(Quit);
            }
            let left = MISSION_SECONDS - self.v.rolled.elapsed().as_secs_f64();
            if left <= 0.0 {
                return nobody(self);
            }
            for i in 0..self.v.passed.len() {
                if !self.v.passed[i] && self.t.seats.away(i) {
                    self.v.passed[i] = true;
                    self.publish();
                }
            }
            if self.v.passed.iter().all(|&p| p) {
                return nobody(self);
            }
            let Some(Asked {
                account,
                message,
                reply,
                ..
            }) = self.next(Duration::from_secs_f64(left.min(0.5)))
            else {
                continue;
            };
            let seat = self.t.seats.of(account).filter(|&i| !self.v.passed[i]);
            match (message, seat) {
                (Message::Announce { mission, .. }, Some(_))
                    if mission.is_some_and(|m| m != self.v.mission) =>
                {
                    let _ = reply.send(Err("that mission is over".into()));
                }
                (Message::Announce { moves, .. }, Some(player)) if (1..=99).contains(&moves) => {
                    let at = self.v.rolled.elapsed().as_secs_f64();
                    let stored = self.t.store(&Answer::Race {
                        player: Some(player),
                        at,
                        moves,
                    });
                    let _ = reply.send(stored.map(|()| None).map_err(String::from));
                    return Ok(Some((player, at, moves)));
                }
                (Message::Announce { .. }, Some(_)) => {
                    let _ = reply.send(Err("an announcement is 1 to 99 moves".into()));
                }
                (Message::Pass, Some(i)) => {
                    self.v.passed[i] = true;
                    let _ = reply.send(Ok(None));
                    self.publish();
                }
                _ => {
                    let _ = reply.send(Err(
                        "a seated player who has not passed announces or passes now".into(),
                    ));
                }
            }
        }
    }

    /// The announcer's demonstration: stored (played again), or their cells as they send
    /// them; none (a failure) when they are away or out of time.
    fn shown(&mut self, player: usize, announced: u32) -> Result<Vec<Cell>, Quit> {
        if let Some(Answer::Shown { stops }) = self.script.front().cloned() {
            self.script.pop_front();
            return Ok(stops_of(&stops).unwrap_or_default());
        }
        self.v.phase = MicroPhase::Showing;
        self.v.showing = Some((player, announced));
        self.publish();
        let Room { t, v, .. } = self;
        let shown = t
            .await_show(
                (player, SHOW_SECONDS),
                &|t| publish(t, v),
                stops_of,
                "the announcer shows the cells now",
            )
            .map_err(|Stopped| Quit)?;
        let (stops, reply) = match shown {
            Some((_, stops, reply)) => (stops, Some(reply)),
            None => (Vec::new(), None),
        };
        let words: Vec<String> = stops.iter().map(Cell::to_string).collect();
        let stored = self.t.store(&Answer::Shown {
            stops: words.join(" "),
        });
        if let Some(reply) = reply {
            let _ = reply.send(stored.map(|()| None).map_err(String::from));
        }
        Ok(stops)
    }
}

/// The cells of a demonstration, separated by spaces or commas (`B5 R5`).
fn stops_of(text: &str) -> Result<Vec<Cell>, String> {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .collect();
    if words.len() > MAX_STOPS {
        return Err(format!("at most {MAX_STOPS} cells"));
    }
    words
        .iter()
        .map(|w| {
            Cell::parse(w)
                .ok_or_else(|| "each stop is a cell: its colour letter and number (B5)".to_string())
        })
        .collect()
}

/// The game's humans: the room's seats.
struct Players(Rc<RefCell<Room>>);

impl Humans for Players {
    fn announce(
        &mut self,
        name: &str,
        _: &Board,
        _: Cell,
        _: Option<Cell>,
        _: Cell,
    ) -> Result<Option<(u32, f64)>, Quit> {
        let mut r = self.0.borrow_mut();
        let race = match r.v.race {
            Some(race) => race,
            None => {
                let race = r.race()?;
                r.v.race = Some(race);
                race
            }
        };
        let seat = r.t.seats.named(name);
        Ok(race
            .filter(|&(p, _, _)| Some(p) == seat)
            .map(|(_, at, moves)| (moves, at)))
    }

    fn demonstrate(&mut self, name: &str, _: Cell, announced: u32) -> Result<Vec<Cell>, Quit> {
        let mut r = self.0.borrow_mut();
        let player = r.t.seats.named(name).unwrap_or(0);
        r.shown(player, announced)
    }
}

/// The game of a room: the face's tiles laid out from its seed, its seats as the players.
fn new_game(t: &Table) -> Result<Game, String> {
    let name = &t.row.settings.board;
    let text = robots_games::micro::shipped::micro_face(name).ok_or("no such face")?;
    let face = robots_games::micro::file::parse_face(name, text).map_err(|e| e.to_string())?;
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
    let variant = match t.row.settings.variant.as_str() {
        "waypoint" => Variant::Waypoint,
        "no-token" => Variant::NoToken,
        _ => Variant::Standard,
    };
    Ok(Game::on_face(&face, players, variant, t.row.seed))
}

/// The room's thread: seating, then the game (played again from its stored answers), then
/// the end, until the server stops or nobody has been in it for a while.
pub fn run(parts: Parts) {
    let (t, actions) = Table::new(parts);
    // The board is shown while the players sit down; the game is set up with them seated.
    let board = match new_game(&t) {
        Ok(g) => g.board().clone(),
        Err(e) => {
            tracing::error!(error = %e, "a Micro Robots room's game cannot be set up");
            return;
        }
    };
    let script = actions
        .iter()
        .filter_map(|a| serde_json::from_str(a).ok())
        .collect();
    let n = t.seats.len();
    let mut v = View {
        board,
        phase: MicroPhase::Writing,
        mission: 0,
        oya: None,
        start: None,
        via: None,
        target: None,
        token: false,
        path: Vec::new(),
        won: Vec::new(),
        svg: String::new(),
        rolled: Instant::now(),
        passed: vec![false; n],
        showing: None,
        reserve: TOKENS,
        race: None,
        log: VecDeque::new(),
        result: None,
    };
    v.draw();
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
    let Ok(game) = new_game(&room.borrow().t) else {
        return;
    };
    let log_room = Rc::clone(&room);
    let mut log = move |note: Note| keep(&mut log_room.borrow_mut(), &note);
    let outcome = game.play(&mut Players(Rc::clone(&room)), &mut log);
    let mut guard = room.borrow_mut();
    if guard.t.stopped() {
        return;
    }
    let Room { t, v, .. } = &mut *guard;
    v.phase = MicroPhase::Over;
    v.showing = None;
    v.result = Some(MicroResult {
        winners: outcome.winners,
        reason: outcome.reason,
    });
    t.linger(&|t| publish(t, v));
}

/// A note of the game: its words in the log (`Note::Mission` keeps the fewest moves out of
/// its words), the board's marks, the tokens.
fn keep(r: &mut Room, note: &Note) {
    let (t, v) = (&mut r.t, &mut r.v);
    match note {
        Note::Start { cell, .. } => v.start = Some(*cell),
        Note::Mission {
            number,
            player,
            start,
            via,
            target,
            token,
            ..
        } => {
            (v.mission, v.oya, v.phase) = (*number, t.seats.named(player), MicroPhase::Racing);
            (v.start, v.via, v.target, v.token) = (Some(*start), *via, Some(*target), *token);
            (v.path, v.showing, v.race, v.rolled) =
                (std::mem::take(&mut v.won), None, None, Instant::now());
            v.passed.iter_mut().for_each(|p| *p = false);
        }
        Note::Wins {
            player,
            path,
            tokens,
        } => {
            if let Some(i) = t.seats.named(player) {
                t.tokens[i] = *tokens;
            }
            v.path.clone_from(path);
            v.won.clone_from(path);
            v.reserve = v.reserve.saturating_sub(1);
        }
        Note::Gives { from, to } => {
            if let (Some(a), Some(b)) = (t.seats.named(from), t.seats.named(to)) {
                t.tokens[a] = t.tokens[a].saturating_sub(1);
                t.tokens[b] += 1;
            }
        }
        _ => {}
    }
    if matches!(
        note,
        Note::Wins { .. } | Note::Fails { .. } | Note::NobodyFinds { .. }
    ) {
        (v.phase, v.showing) = (MicroPhase::Racing, None);
    }
    v.draw();
    for line in note.to_string().lines() {
        v.say(line.to_string());
    }
    r.publish();
}
