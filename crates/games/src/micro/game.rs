//! A game of Micro Robots (RULES C.1): missions of dice rolls, announcements, demonstrations
//! checked against the exact count, the token penalty, the previous target as the next start,
//! and the end. Pure and seeded: humans answer through [`Humans`], the log goes to a sink.
//! The players, their seats and the end of a game are the table's ([`crate::table`]).

use super::analyse::arrangements;
use super::board::{Arrangement, Board, Cell, Face};
use super::record::Note;
use super::solve::{IllegalMove, Moves};
use crate::table;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub use crate::table::{Kind, NoHumans, Player};

/// Tokens in the reserve at the start.
pub const TOKENS: u32 = 25;
/// Tokens that win at once.
pub const WINNING_TOKENS: u32 = 5;
/// Seconds after which a mission with no announcement is abandoned ("2, 3 minutes").
pub const MISSION_SECONDS: f64 = 150.0;
/// A game stops after this many missions even if nobody has won (only a table of very weak
/// players gets there). R-B3 (a whole pass of the pile with no token won) is Ricochet's: here
/// no target is drawn again, each mission rolls a new one and starts on the last, so a
/// mission nobody can do does not come back.
pub const MAX_MISSIONS: u32 = 500;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// A token is placed on the rolled target.
    Standard,
    /// No token on the target: the mission starts at the roll.
    NoToken,
    /// The first roll is a waypoint the robot must stop on; a second roll gives the target.
    Waypoint,
}

/// A human player leaves the table (`quit`, or the end of the input): the game ends at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quit;

/// What a human says during a mission; `Err(Quit)` ends the game.
pub trait Humans {
    /// The announcement (number of stops) and how many seconds it took, or `None` to pass.
    fn announce(
        &mut self,
        name: &str,
        board: &Board,
        start: Cell,
        via: Option<Cell>,
        target: Cell,
    ) -> Result<Option<(u32, f64)>, Quit>;
    /// The demonstration from `start`: the cells stopped on after the start, in order.
    fn demonstrate(&mut self, name: &str, start: Cell, announced: u32) -> Result<Vec<Cell>, Quit>;
}

impl Humans for NoHumans {
    fn announce(
        &mut self,
        _: &str,
        _: &Board,
        _: Cell,
        _: Option<Cell>,
        _: Cell,
    ) -> Result<Option<(u32, f64)>, Quit> {
        Ok(None)
    }
    fn demonstrate(&mut self, _: &str, _: Cell, _: u32) -> Result<Vec<Cell>, Quit> {
        Ok(Vec::new())
    }
}

#[derive(Clone, Debug)]
pub struct Outcome {
    pub missions: u32,
    pub players: Vec<Player>,
    /// Several winners are possible when the reserve runs out.
    pub winners: Vec<String>,
    pub reason: String,
}

/// Why a demonstration does not win the token.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Failed {
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
    #[error("the robot does not end on {0}")]
    NotOnTarget(Cell),
    #[error("the robot never stops on the waypoint {0}")]
    MissedWaypoint(Cell),
    #[error("{shown} moves instead of {announced}")]
    WrongCount { shown: usize, announced: u32 },
}

fn roll(rng: &mut ChaCha8Rng) -> Cell {
    let colour = usize::try_from(rng.random_range(0..6u32)).unwrap_or(0);
    let number = rng.random_range(1..7u32);
    u8::try_from(number)
        .ok()
        .and_then(|number| Cell::new(colour, number))
        .expect("the dice show a colour 0–5 and a number 1–6")
}

/// A roll that is none of `avoid`.
fn roll_new(rng: &mut ChaCha8Rng, avoid: &[Cell]) -> Cell {
    loop {
        let c = roll(rng);
        if !avoid.contains(&c) {
            break c;
        }
    }
}

/// A mission's rolls from `seed` alone: the start (unless given: the previous target), then
/// the waypoint under [`Variant::Waypoint`] and the target, each a new cell, as a game rolls
/// them (the page's missions, web/play/ENGINE.md).
pub fn roll_from(seed: u64, variant: Variant, start: Option<Cell>) -> (Cell, Option<Cell>, Cell) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let start = start.unwrap_or_else(|| roll(&mut rng));
    let (via, target) = rolls(&mut rng, variant, start);
    (start, via, target)
}

/// The waypoint (under [`Variant::Waypoint`]) and the target of a mission from `start`.
fn rolls(rng: &mut ChaCha8Rng, variant: Variant, start: Cell) -> (Option<Cell>, Cell) {
    match variant {
        Variant::Waypoint => {
            let via = roll_new(rng, &[start]);
            (Some(via), roll_new(rng, &[start, via]))
        }
        _ => (None, roll_new(rng, &[start])),
    }
}

/// A computer player's search: when it announces (seconds) and what.
fn computer_search(rng: &mut ChaCha8Rng, strength: u8, optimal: u32) -> (f64, u32) {
    let base = match strength {
        3 => 4.0,
        2 => 7.0,
        _ => 11.0,
    };
    let error = match strength {
        3 => 0.05,
        2 => 0.12,
        _ => 0.25,
    };
    let seconds = base * f64::from(optimal + 1) * rng.random_range(0.6..1.8);
    let mut announced = optimal;
    if rng.random_bool(error) {
        announced = if optimal > 1 && rng.random_bool(0.5) {
            optimal - 1
        } else {
            optimal + 1
        };
    }
    (seconds, announced)
}

/// The arrangement a game on `face` is played in: drawn from the board stream of its seed
/// ([`table::board_rng`]), so the seed gives the board and the game's rolls do not depend on
/// it.
pub fn draw_arrangement(seed: u64) -> Arrangement {
    let all = arrangements();
    all[table::board_rng(seed).random_range(0..all.len())]
}

/// One mission: where the robot starts, the waypoint, the target, and the fewest moves.
#[derive(Clone, Copy)]
struct Mission {
    start: Cell,
    via: Option<Cell>,
    target: Cell,
    optimal: Option<u32>,
}

/// The player (an index) who left the table during a mission.
struct Left(usize);

/// A game in play: the board, the rules, the dice and the table.
pub struct Game {
    board: Board,
    moves: Moves,
    variant: Variant,
    rng: ChaCha8Rng,
    players: Vec<Player>,
    reserve: u32,
}

impl Game {
    /// A game on `board`; `seed` drives the dice and the computer players.
    pub fn new(board: Board, players: Vec<Player>, variant: Variant, seed: u64) -> Game {
        Game {
            moves: Moves::new(&board),
            board,
            variant,
            rng: ChaCha8Rng::seed_from_u64(seed),
            players,
            reserve: TOKENS,
        }
    }

    /// A game on `face`, its tiles laid out at random from `seed` ([`draw_arrangement`]).
    pub fn on_face(face: &Face, players: Vec<Player>, variant: Variant, seed: u64) -> Game {
        let board = Board::arrange(face, draw_arrangement(seed));
        Game::new(board, players, variant, seed)
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The rules this game is played by.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Plays the game to its end. `log` receives the game's account line by line.
    pub fn play(mut self, humans: &mut dyn Humans, log: &mut dyn FnMut(Note)) -> Outcome {
        let n = self.players.len();
        // The youngest rolls first: the first player listed.
        let mut oya = 0;
        let mut start = roll(&mut self.rng);
        log(Note::Start {
            player: self.players[oya].name.clone(),
            cell: start,
        });
        let mut mission = 0;
        let reason = loop {
            mission += 1;
            if mission > MAX_MISSIONS {
                mission -= 1;
                break format!("{MAX_MISSIONS} missions played");
            }
            match self.mission(mission, oya, start, humans, log) {
                Ok(target) => start = target,
                Err(Left(i)) => {
                    let player = self.players[i].name.clone();
                    log(Note::Leaves {
                        player: player.clone(),
                    });
                    break format!("{player} leaves the table");
                }
            }
            oya = (oya + 1) % n;
            if let Some(p) = self.players.iter().find(|p| p.tokens >= WINNING_TOKENS) {
                break format!("{} holds {WINNING_TOKENS} tokens", p.name);
            }
            if self.reserve == 0 {
                break format!("all {TOKENS} tokens are given out");
            }
        };
        let end = table::finish(&self.players, mission, "mission", &reason);
        let winners = end.winners.clone();
        log(Note::End(end));
        Outcome {
            missions: mission,
            players: self.players,
            winners,
            reason,
        }
    }

    /// The rolls of a mission, and its fewest moves.
    fn roll_mission(&mut self, start: Cell) -> Mission {
        let (via, target) = rolls(&mut self.rng, self.variant, start);
        let (s, t) = (self.board.position(start), self.board.position(target));
        let optimal = match via {
            Some(v) => {
                let d = self.moves.all_distances();
                let p = self.board.position(v);
                (d[s][p] != u8::MAX && d[p][t] != u8::MAX)
                    .then(|| u32::from(d[s][p]) + u32::from(d[p][t]))
            }
            None => self
                .moves
                .path(s, t)
                .and_then(|p| u32::try_from(p.len() - 1).ok()),
        };
        Mission {
            start,
            via,
            target,
            optimal,
        }
    }

    /// Plays mission number `number`, rolled by the Oya; returns its target, the next start,
    /// or who left the table.
    fn mission(
        &mut self,
        number: u32,
        oya: usize,
        start: Cell,
        humans: &mut dyn Humans,
        log: &mut dyn FnMut(Note),
    ) -> Result<Cell, Left> {
        let m = self.roll_mission(start);
        log(Note::Mission {
            number,
            player: self.players[oya].name.clone(),
            start,
            via: m.via,
            target: m.target,
            token: self.variant != Variant::NoToken,
            fewest: m.optimal,
        });
        match self.first_announcement(oya, m, humans)? {
            None => log(Note::NobodyFinds {
                minutes: MISSION_SECONDS / 60.0,
            }),
            Some((seconds, i, announced)) => {
                log(Note::Announces {
                    seconds,
                    player: self.players[i].name.clone(),
                    moves: announced,
                });
                self.demonstration(i, announced, m, humans, log)?;
            }
        }
        Ok(m.target)
    }

    /// Everyone searches at once; the first to announce in time shows the solution:
    /// `(seconds, player, announced)`.
    fn first_announcement(
        &mut self,
        oya: usize,
        m: Mission,
        humans: &mut dyn Humans,
    ) -> Result<Option<(f64, usize, u32)>, Left> {
        let n = self.players.len();
        let mut announcements: Vec<(f64, usize, u32)> = Vec::new();
        for (i, player) in self.players.iter().enumerate() {
            let found = match &player.kind {
                Kind::Computer { strength } => m
                    .optimal
                    .map(|d| computer_search(&mut self.rng, *strength, d)),
                Kind::Human => humans
                    .announce(&player.name, &self.board, m.start, m.via, m.target)
                    .map_err(|Quit| Left(i))?
                    .map(|(k, secs)| (secs, k)),
            };
            if let Some((seconds, k)) = found
                && seconds <= MISSION_SECONDS
            {
                // Seats from the Oya's left settle equal times.
                announcements.push((seconds, table::seat(oya, i, n), k));
            }
        }
        announcements.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        Ok(announcements
            .first()
            .map(|&(seconds, seat, announced)| (seconds, (seat + oya) % n, announced)))
    }

    /// Player `i` shows its announcement: the token, or the penalty.
    fn demonstration(
        &mut self,
        i: usize,
        announced: u32,
        m: Mission,
        humans: &mut dyn Humans,
        log: &mut dyn FnMut(Note),
    ) -> Result<(), Left> {
        let (board, moves) = (&self.board, &self.moves);
        let shown = match self.players[i].kind {
            Kind::Human => humans
                .demonstrate(&self.players[i].name, m.start, announced)
                .map_err(|Quit| Left(i))?,
            Kind::Computer { .. } => {
                computer_demonstration(moves, board, m.start, m.via, m.target, announced)
            }
        };
        match check(moves, board, m.start, m.via, m.target, announced, &shown) {
            Ok(()) => {
                self.players[i].tokens += 1;
                self.reserve -= 1;
                log(Note::Wins {
                    player: self.players[i].name.clone(),
                    path: std::iter::once(m.start).chain(shown).collect(),
                    tokens: self.players[i].tokens,
                });
            }
            Err(why) => {
                log(Note::Fails {
                    player: self.players[i].name.clone(),
                    why: why.to_string(),
                    best: m.optimal,
                });
                penalty(&mut self.players, i, log);
            }
        }
        Ok(())
    }
}

/// Plays a whole game on `board`. `log` receives the game's account line by line.
pub fn play(
    board: &Board,
    players: Vec<Player>,
    variant: Variant,
    seed: u64,
    humans: &mut dyn Humans,
    log: &mut dyn FnMut(Note),
) -> Outcome {
    Game::new(board.clone(), players, variant, seed).play(humans, log)
}

/// A failed demonstration costs one token (if any), to the player with the fewest tokens;
/// among equals, the nearest to the failing player's left.
fn penalty(players: &mut [Player], loser: usize, log: &mut dyn FnMut(Note)) {
    if players[loser].tokens == 0 {
        return;
    }
    let n = players.len();
    let fewest = table::left_of(loser, n)
        .map(|j| players[j].tokens)
        .min()
        .unwrap_or(0);
    if let Some(to) = table::left_of(loser, n).find(|&j| players[j].tokens == fewest) {
        players[loser].tokens -= 1;
        players[to].tokens += 1;
        log(Note::Gives {
            from: players[loser].name.clone(),
            to: players[to].name.clone(),
        });
    }
}

/// The demonstration a computer player gives for its announcement: a walk of exactly that
/// many moves when one exists (through the waypoint), else its best try.
fn computer_demonstration(
    moves: &Moves,
    board: &Board,
    start: Cell,
    via: Option<Cell>,
    target: Cell,
    announced: u32,
) -> Vec<Cell> {
    let (s, t) = (board.position(start), board.position(target));
    let announced = usize::try_from(announced).unwrap_or(usize::MAX);
    let legs = match via {
        None => moves.walk(s, t, announced),
        Some(v) => {
            let p = board.position(v);
            let first = moves.path(s, p);
            first.and_then(|first| {
                let rest = announced.checked_sub(first.len() - 1)?;
                let second = moves.walk(p, t, rest)?;
                Some(
                    first
                        .into_iter()
                        .chain(second.into_iter().skip(1))
                        .collect(),
                )
            })
        }
    };
    let path = legs.or_else(|| moves.path(s, t)).unwrap_or_else(|| vec![s]);
    path.into_iter().skip(1).map(|p| board.cell_at(p)).collect()
}

/// A demonstration is legal, ends on the target, stops on the waypoint, and has exactly the
/// announced number of moves.
pub fn check(
    moves: &Moves,
    board: &Board,
    start: Cell,
    via: Option<Cell>,
    target: Cell,
    announced: u32,
    stops: &[Cell],
) -> Result<(), Failed> {
    moves.check(board, start, stops)?;
    if stops.last() != Some(&target) {
        return Err(Failed::NotOnTarget(target));
    }
    if let Some(v) = via
        && !stops.contains(&v)
    {
        return Err(Failed::MissedWaypoint(v));
    }
    if usize::try_from(announced).ok() != Some(stops.len()) {
        return Err(Failed::WrongCount {
            shown: stops.len(),
            announced,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::micro::file::{MicroFile, parse};
    use crate::micro::shipped::micro_face;

    fn silver() -> Face {
        let text = micro_face("silver").expect("shipped");
        match parse("silver", text, &|_| Err(String::new())) {
            Ok(MicroFile::Face(face)) => face,
            _ => panic!("the silver face"),
        }
    }

    #[test]
    fn a_game_on_a_face_draws_its_arrangement_from_the_seed() {
        let face = silver();
        let players = || table::roster(&[], 3, 2).expect("three computers");
        let drawn = Game::on_face(&face, players(), Variant::Standard, 9);
        assert_eq!(drawn.board(), &Board::arrange(&face, draw_arrangement(9)));
        // The same dice whether the board was drawn or given.
        let given = Game::new(drawn.board().clone(), players(), Variant::Standard, 9);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        drawn.play(&mut NoHumans, &mut |l| a.push(l.to_string()));
        given.play(&mut NoHumans, &mut |l| b.push(l.to_string()));
        assert_eq!(a, b);
        let drawn: std::collections::HashSet<_> = (0..8).map(draw_arrangement).collect();
        assert!(drawn.len() > 1, "seeds draw different arrangements");
    }

    #[test]
    fn a_demonstration_says_why_it_fails() {
        let board = Board::arrange(&silver(), Arrangement::PLAIN);
        let moves = Moves::new(&board);
        let cell = |t: &str| Cell::parse(t).expect("a cell");
        let (start, target) = (cell("P1"), cell("W2"));
        let path = super::super::solve::solve(&board, start, target, None).expect("a way");
        let stops = &path.path[1..];
        let n = u32::try_from(path.moves).expect("a few moves");
        assert_eq!(check(&moves, &board, start, None, target, n, stops), Ok(()));
        assert_eq!(
            check(&moves, &board, start, None, target, n + 1, stops),
            Err(Failed::WrongCount {
                shown: path.moves,
                announced: n + 1
            })
        );
        let short = &stops[..stops.len() - 1];
        assert!(matches!(
            check(&moves, &board, start, None, target, n, short),
            Err(Failed::NotOnTarget(_))
        ));
        assert!(matches!(
            check(&moves, &board, start, Some(cell("B1")), target, n, stops),
            Err(Failed::MissedWaypoint(_)) | Err(Failed::NotOnTarget(_))
        ));
        assert!(matches!(
            check(&moves, &board, start, None, target, 1, &[start]),
            Err(Failed::Illegal(IllegalMove::Stays { .. }))
        ));
    }
}
