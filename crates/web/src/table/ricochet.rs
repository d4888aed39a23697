//! The full game of Ricochet Robots in the page (web/play/ENGINE.md, "ricochetGame"), as
//! `robots ricochet play --human NAME` plays it: the games crate's own [`Game`] on the original
//! board its seed draws, against its computers. The engine holds no clock and no game: every
//! request carries the whole game so far (the settings, then each round's bids and passes
//! with their seconds on the page's clock, and the moves shown), and the game is played again
//! from its seed up to the first answer the page has not given yet. There it stops and says
//! what it waits for: a bid until a time (the next computer's bid, the sand timer running
//! out), or the human's demonstration. The rounds' solutions are remembered between requests
//! ([`MEMO`]), so a request costs the bidding, not the solving, of the rounds before.

use super::{PlayerOut, check_table, limit, players_out};
use crate::answer::{ErrorKind, Failure, json};
use crate::ricochet::{Drawn, MoveIn};
use robots_games::ricochet::files::game_id::GameId;
use robots_games::ricochet::play::bidding::{Heard, Humans, Timer};
use robots_games::ricochet::play::game::{self, Game, MAX_ROUNDS, Outcome};
use robots_games::ricochet::play::record::{Note, Quit};
use robots_games::ricochet::position::{Move, Position};
use robots_games::ricochet::report;
use robots_games::ricochet::rules::Rules;
use robots_games::ricochet::solve::{Solution, solve};
use robots_games::table;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::VecDeque;

/// The most bids and passes a whole game's request holds.
pub const MAX_HEARD: usize = 10_000;
/// The most moves a demonstration shows.
pub const MAX_SHOWN: usize = 1_000;
/// The latest second a bid may be given (as a script's `@SECONDS`).
pub const MAX_SECONDS: f64 = 1e6;
/// The most rounds' solutions remembered.
const MEMO_SIZE: usize = 256;

thread_local! {
    /// The solutions found for the rounds' positions (a game id with R-B1, or none), oldest
    /// first: the same answers as the solver, found once.
    static MEMO: RefCell<VecDeque<(String, Option<Solution>)>> = RefCell::default();
}

/// The game's solver with the memo: the solver's answer, remembered by the position's game id.
fn remembered(position: &Position, limit: u32) -> Option<Solution> {
    let Some(id) = GameId::of(position) else {
        return solve(position, limit).ok();
    };
    let key = format!("{id} {} {limit}", position.rules.must_ricochet);
    if let Some(found) =
        MEMO.with_borrow(|m| m.iter().find(|(k, _)| *k == key).map(|(_, s)| s.clone()))
    {
        return found;
    }
    let found = solve(position, limit).ok();
    MEMO.with_borrow_mut(|m| {
        if m.len() >= MEMO_SIZE {
            m.pop_front();
        }
        m.push_back((key, found.clone()));
    });
    found
}

/// A bid or a pass, `at` seconds after the round's target was shown.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeardIn {
    at: f64,
    bid: Option<u32>,
    #[serde(default)]
    pass: bool,
}

/// What the human said in one round: bids and passes in time order, and the moves shown
/// when asked for the demonstration.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundIn {
    #[serde(default)]
    heard: Vec<HeardIn>,
    shown: Option<Vec<MoveIn>>,
}

/// The game so far: the settings, the rounds the page has seen (the last one live), the
/// seconds since the last round's target was shown, and whether the player quits.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct GameIn {
    seed: u64,
    /// Everybody at the table: the human and 1 to 3 computers.
    players: usize,
    /// The computers' strength, 1 to 4 (`--strength`).
    strength: u8,
    /// The human's name.
    name: Option<String>,
    /// R-B1 (on unless `false`, as `--no-ricochet` turns it off).
    must_ricochet: Option<bool>,
    #[serde(default)]
    rounds: Vec<RoundIn>,
    #[serde(default)]
    now: f64,
    #[serde(default)]
    quit: bool,
}

fn seconds_in_range(s: f64) -> bool {
    s.is_finite() && (0.0..=MAX_SECONDS).contains(&s)
}

impl GameIn {
    /// The request's checks, before anything is played.
    fn check(&self) -> Result<(), Failure> {
        check_table(self.players, self.strength, 4)?;
        if let Some(name) = &self.name
            && (name.is_empty()
                || name.chars().count() > 24
                || !name
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '-' || c == '_'))
        {
            return Err(limit("name: 1 to 24 letters, digits, `-` or `_`"));
        }
        if self.rounds.len() > MAX_ROUNDS as usize {
            return Err(limit(format!("rounds: at most {MAX_ROUNDS}")));
        }
        let heard: usize = self.rounds.iter().map(|r| r.heard.len()).sum();
        if heard > MAX_HEARD {
            return Err(limit(format!("at most {MAX_HEARD} bids and passes a game")));
        }
        if self
            .rounds
            .iter()
            .any(|r| r.shown.as_ref().is_some_and(|s| s.len() > MAX_SHOWN))
        {
            return Err(limit(format!(
                "a demonstration shows at most {MAX_SHOWN} moves"
            )));
        }
        let times = self
            .rounds
            .iter()
            .flat_map(|r| r.heard.iter().map(|h| h.at));
        if !seconds_in_range(self.now) || times.clone().any(|t| !seconds_in_range(t)) {
            return Err(limit(format!(
                "a time is seconds after the target was shown, 0 to {MAX_SECONDS}"
            )));
        }
        if self
            .rounds
            .iter()
            .flat_map(|r| &r.heard)
            .any(|h| h.pass == h.bid.is_some())
        {
            return Err(Failure::new(
                ErrorKind::Request,
                "each heard item is a bid (`bid`) or a pass (`pass: true`)",
            ));
        }
        Ok(())
    }
}

/// Where the game stopped for the page.
#[derive(Clone, Debug)]
enum Halt {
    /// Waiting for the human's bid or pass until the timer's `until`.
    Bidding(Timer),
    /// Waiting for the human's demonstration of `bid` moves.
    Demonstrate { bid: u32 },
}

/// The human at the page, scripted by the request: rounds before the last are over (nothing
/// more is said in them), the last one is live at `now` seconds, and any later one has just
/// begun.
struct PageHuman<'a> {
    name: String,
    rounds: &'a [RoundIn],
    now: f64,
    quit: bool,
    /// The round being played, its position, the heard items not yet given to the game,
    /// whether its demonstration was given.
    round: u32,
    position: Option<Position>,
    heard: VecDeque<Heard>,
    shown: Option<Vec<Move>>,
    halt: Option<Halt>,
}

impl PageHuman<'_> {
    fn live(&self) -> Option<&RoundIn> {
        self.rounds.get(self.round as usize - 1)
    }

    /// The seconds on the page's clock in this round: every second for a round that is over.
    fn clock(&self) -> f64 {
        match (self.round as usize).cmp(&self.rounds.len()) {
            std::cmp::Ordering::Less => f64::INFINITY,
            std::cmp::Ordering::Equal => self.now,
            std::cmp::Ordering::Greater => 0.0,
        }
    }

    fn is_last(&self) -> bool {
        self.round as usize >= self.rounds.len()
    }

    /// The game stops here: it will be played again with the page's next answer.
    fn stop(&mut self, halt: Halt) -> Quit {
        self.halt = Some(halt);
        Quit::InputEnded
    }
}

impl Humans for PageHuman<'_> {
    fn look(&mut self, round: u32, position: &Position) {
        self.round = round;
        self.position = Some(position.clone());
        let live = self.live().cloned().unwrap_or_default();
        self.heard = live
            .heard
            .iter()
            .map(|h| match h.bid {
                Some(moves) => Heard::Bid {
                    at: h.at,
                    player: 0,
                    moves,
                },
                None => Heard::Pass {
                    at: h.at,
                    player: 0,
                },
            })
            .collect();
        // A move the engine cannot read is shown as no move: the checker refuses it.
        self.shown = live.shown.map(|moves| {
            moves
                .iter()
                .map(MoveIn::read)
                .collect::<Result<Vec<_>, _>>()
                .unwrap_or_default()
        });
    }

    fn wait(&mut self, timer: &Timer) -> Heard {
        let at = |h: &Heard| match h {
            Heard::Bid { at, .. } | Heard::Pass { at, .. } => *at,
            Heard::Nothing | Heard::Quit(_) => 0.0,
        };
        if let Some(next) = self.heard.front()
            && at(next) <= timer.until
        {
            return self.heard.pop_front().unwrap_or(Heard::Nothing);
        }
        if self.quit && self.is_last() {
            return Heard::Quit(Quit::Asked(self.name.clone()));
        }
        // A microsecond's slack: a time read from JSON may be a bit below the one written.
        if self.clock() + 1e-6 < timer.until {
            return Heard::Quit(self.stop(Halt::Bidding(timer.clone())));
        }
        Heard::Nothing
    }

    fn late(&mut self, _ran_out: f64) -> Vec<(f64, usize, u32)> {
        self.heard
            .drain(..)
            .filter_map(|h| match h {
                Heard::Bid { at, player, moves } => Some((at, player, moves)),
                _ => None,
            })
            .collect()
    }

    fn demonstrate(&mut self, _player: usize, _name: &str, bid: u32) -> Result<Vec<Move>, Quit> {
        if let Some(shown) = self.shown.take() {
            return Ok(shown);
        }
        if self.quit && self.is_last() {
            return Err(Quit::Asked(self.name.clone()));
        }
        Err(self.stop(Halt::Demonstrate { bid }))
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TimerOut {
    now: f64,
    until: f64,
    runs_out: Option<f64>,
    turned: bool,
    standing: Vec<Option<u32>>,
}

/// The game as far as the page has answered it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct GameOut {
    /// `bidding`, `demonstrate` or `over`.
    state: &'static str,
    /// The round being played (0 before the first).
    round: u32,
    /// The round's position (its game id, to draw and to play moves on).
    id: Option<String>,
    must_ricochet: bool,
    position: Option<Drawn>,
    /// Bidding: until when the game waits for the human's bid, the timer and the bids.
    timer: Option<TimerOut>,
    /// Demonstrate: the human's bid to show.
    bid: Option<u32>,
    players: Vec<PlayerOut>,
    /// The game's log, in `robots ricochet play`'s words.
    log: Vec<String>,
    /// Its record, as `robots ricochet play --json` writes it (the rounds finished).
    record: Vec<String>,
    /// Over: the winners.
    winners: Vec<String>,
}

/// The game of the request, played as far as the page answered it.
pub fn play(request: &str) -> Result<String, Failure> {
    let r: GameIn = serde_json::from_str(request)?;
    r.check()?;
    let name = r.name.clone().unwrap_or_else(|| "you".to_string());
    let table = table::roster(std::slice::from_ref(&name), r.players, r.strength)
        .map_err(|e| limit(e.to_string()))?;
    if table
        .iter()
        .skip(1)
        .any(|p| p.name.eq_ignore_ascii_case(&name))
    {
        return Err(limit(format!("name: `{name}` is a computer's")));
    }
    let board = game::original_board(r.seed);
    let rules = Rules {
        must_ricochet: r.must_ricochet.unwrap_or(true),
        no_single_move: false,
    };
    let players = table.len();
    let setup_players = table::report::players(&table);
    let game = Game::new(&board, table, r.seed, rules)
        .map_err(|e| Failure::new(ErrorKind::Setup, e.to_string()))?
        .with_solver(remembered);
    let mut record = vec![report::setup(&game, r.seed, setup_players)];
    let mut human = PageHuman {
        name,
        rounds: &r.rounds,
        now: r.now,
        quit: r.quit,
        round: 0,
        position: None,
        heard: VecDeque::new(),
        shown: None,
        halt: None,
    };
    let mut notes = Vec::new();
    let outcome: Outcome = game.play(&mut human, &mut |note| notes.push(note));
    if human.halt.is_some()
        && let Some(at) = notes.iter().position(|n| matches!(n, Note::Quits(_)))
    {
        notes.truncate(at);
    }
    let mut log = vec![format!(
        "Ricochet Robots on {} ({players} players, seed {})",
        board.name, r.seed
    )];
    let mut folded = report::Record::default();
    for note in &notes {
        log.push(note.to_string());
        record.extend(folded.note(note));
    }
    answer(human, &outcome, rules, log, record)
}

/// The answer: where the game stopped, the round's position, the players, the log.
fn answer(
    mut human: PageHuman<'_>,
    outcome: &Outcome,
    rules: Rules,
    log: Vec<String>,
    record: Vec<String>,
) -> Result<String, Failure> {
    let over = human.halt.is_none();
    let (state, timer, bid) = match human.halt.take() {
        Some(Halt::Bidding(t)) => (
            "bidding",
            Some(TimerOut {
                now: t.now,
                until: t.until,
                runs_out: t.runs_out,
                turned: t.turned,
                standing: t.standing,
            }),
            None,
        ),
        Some(Halt::Demonstrate { bid }) => ("demonstrate", None, Some(bid)),
        None => ("over", None, None),
    };
    json(&GameOut {
        state,
        round: human.round,
        id: human
            .position
            .as_ref()
            .and_then(GameId::of)
            .map(|g| g.to_string()),
        must_ricochet: rules.must_ricochet,
        position: human.position.as_ref().map(Drawn::of),
        timer,
        bid,
        players: players_out(&outcome.players),
        log,
        record,
        winners: if over {
            outcome.winners.clone()
        } else {
            Vec::new()
        },
    })
}
