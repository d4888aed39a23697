//! A game of Micro Robots (RULES C.1): missions of dice rolls, announcements, demonstrations
//! checked against the exact count, the token penalty, the previous target as the next start,
//! and the end. Pure and seeded: humans answer through [`Humans`], the log goes to a sink.

use super::board::{Board, COLOURS, Cell};
use super::solve::Moves;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Tokens in the reserve at the start.
pub const TOKENS: u32 = 25;
/// Tokens that win at once.
pub const WINNING_TOKENS: u32 = 5;
/// Seconds after which a mission with no announcement is abandoned ("2, 3 minutes").
pub const MISSION_SECONDS: f64 = 150.0;
/// A game stops after this many missions even if nobody has won (only a table of very weak
/// players gets there).
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

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Strength 1 (slow, often wrong) to 3 (fast, rarely wrong).
    Computer {
        strength: u8,
    },
    Human,
}

#[derive(Clone, Debug)]
pub struct Player {
    pub name: String,
    pub kind: Kind,
    pub tokens: u32,
}

/// What a human says during a mission.
pub trait Humans {
    /// The announcement (number of stops) and how many seconds it took, or `None` to pass.
    fn announce(
        &mut self,
        name: &str,
        board: &Board,
        start: Cell,
        via: Option<Cell>,
        target: Cell,
    ) -> Option<(u32, f64)>;
    /// The demonstration: the cells stopped on after the start, in order.
    fn demonstrate(&mut self, name: &str, announced: u32) -> Vec<Cell>;
}

/// A table with no humans.
pub struct NoHumans;

impl Humans for NoHumans {
    fn announce(
        &mut self,
        _: &str,
        _: &Board,
        _: Cell,
        _: Option<Cell>,
        _: Cell,
    ) -> Option<(u32, f64)> {
        None
    }
    fn demonstrate(&mut self, _: &str, _: u32) -> Vec<Cell> {
        Vec::new()
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

fn roll(rng: &mut ChaCha8Rng) -> Cell {
    Cell::new(
        rng.random_range(0..6u32) as usize,
        rng.random_range(1..7u32) as u8,
    )
}

fn roll_words(c: Cell) -> String {
    format!("{} {} ({c})", COLOURS[c.colour()].1, c.number())
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

/// Plays a whole game. `log` receives the game's account line by line.
pub fn play(
    board: &Board,
    mut players: Vec<Player>,
    variant: Variant,
    seed: u64,
    humans: &mut dyn Humans,
    log: &mut dyn FnMut(String),
) -> Outcome {
    let moves = Moves::new(board);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut reserve = TOKENS;
    let n = players.len();
    // The youngest rolls first: the first player listed.
    let mut oya = 0;
    let mut start = roll(&mut rng);
    log(format!(
        "{} rolls the start: {}",
        players[oya].name,
        roll_words(start)
    ));
    let mut mission = 0;
    let reason = loop {
        mission += 1;
        if mission > MAX_MISSIONS {
            mission -= 1;
            break format!("{MAX_MISSIONS} missions played");
        }
        let roll_new = |rng: &mut ChaCha8Rng, avoid: &[Cell]| loop {
            let c = roll(rng);
            if !avoid.contains(&c) {
                break c;
            }
        };
        let (via, target) = match variant {
            Variant::Waypoint => {
                let via = roll_new(&mut rng, &[start]);
                (Some(via), roll_new(&mut rng, &[start, via]))
            }
            _ => (None, roll_new(&mut rng, &[start])),
        };
        let what = match (variant, via) {
            (Variant::Waypoint, Some(v)) => {
                format!("waypoint {}, target {}", roll_words(v), roll_words(target))
            }
            (Variant::NoToken, _) => format!("target {} (no token on it)", roll_words(target)),
            _ => format!("target {}", roll_words(target)),
        };
        log(format!(
            "mission {mission}: {} rolls {what}; the robot starts on {start}",
            players[oya].name
        ));
        let (s, t) = (board.position(start), board.position(target));
        let optimal = match via {
            Some(v) => {
                let d = moves.all_distances();
                let p = board.position(v);
                (d[s][p] != u8::MAX && d[p][t] != u8::MAX)
                    .then(|| u32::from(d[s][p]) + u32::from(d[p][t]))
            }
            None => moves.path(s, t).map(|p| p.len() as u32 - 1),
        };
        // Everyone searches at once; the first to announce shows the solution.
        let mut announcements: Vec<(f64, usize, u32)> = Vec::new();
        for (i, player) in players.iter().enumerate() {
            let found = match &player.kind {
                Kind::Computer { strength } => {
                    optimal.map(|d| computer_search(&mut rng, *strength, d))
                }
                Kind::Human => humans
                    .announce(&player.name, board, start, via, target)
                    .map(|(k, secs)| (secs, k)),
            };
            if let Some((seconds, k)) = found
                && seconds <= MISSION_SECONDS
            {
                // Seats from the Oya's left settle equal times.
                let seat = (i + n - oya) % n;
                announcements.push((seconds, seat, k));
            }
        }
        announcements.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        match announcements.first() {
            None => log(format!(
                "  nobody finds a way within {} minutes: the token goes back to the reserve",
                MISSION_SECONDS / 60.0
            )),
            Some(&(seconds, seat, announced)) => {
                let i = (seat + oya) % n;
                log(format!(
                    "  after {seconds:.0} s, {} announces {announced}",
                    players[i].name
                ));
                let shown = match players[i].kind {
                    Kind::Human => humans.demonstrate(&players[i].name, announced),
                    Kind::Computer { .. } => {
                        computer_demonstration(&moves, board, start, via, target, announced)
                    }
                };
                match check(&moves, board, start, via, target, announced, &shown) {
                    Ok(()) => {
                        let path: Vec<String> = std::iter::once(start)
                            .chain(shown.iter().copied())
                            .map(|c| c.to_string())
                            .collect();
                        players[i].tokens += 1;
                        reserve -= 1;
                        let moves = if announced == 1 { "move" } else { "moves" };
                        log(format!(
                            "  {} shows {}: {announced} {moves} as announced, and wins the token ({} now)",
                            players[i].name,
                            path.join(" → "),
                            players[i].tokens
                        ));
                    }
                    Err(why) => {
                        let best =
                            optimal.map_or("no way at all".into(), |d| format!("the best is {d}"));
                        log(format!(
                            "  {} fails ({why}; {best}): the token goes back to the reserve",
                            players[i].name
                        ));
                        penalty(&mut players, i, log);
                    }
                }
            }
        }
        start = target;
        oya = (oya + 1) % n;
        if let Some(p) = players.iter().find(|p| p.tokens >= WINNING_TOKENS) {
            break format!("{} holds {WINNING_TOKENS} tokens", p.name);
        }
        if reserve == 0 {
            break format!("all {TOKENS} tokens are given out");
        }
    };
    let table: Vec<(&str, u32)> = players
        .iter()
        .map(|p| (p.name.as_str(), p.tokens))
        .collect();
    let winners = crate::table::finish(&table, &format!("{mission} missions"), &reason, log);
    Outcome {
        missions: mission,
        players,
        winners,
        reason,
    }
}

/// A failed demonstration costs one token (if any), to the player with the fewest tokens;
/// among equals, the nearest to the failing player's left.
fn penalty(players: &mut [Player], loser: usize, log: &mut dyn FnMut(String)) {
    if players[loser].tokens == 0 {
        return;
    }
    let n = players.len();
    let fewest = (1..n)
        .map(|k| players[(loser + k) % n].tokens)
        .min()
        .unwrap_or(0);
    if let Some(to) = (1..n)
        .map(|k| (loser + k) % n)
        .find(|&j| players[j].tokens == fewest)
    {
        players[loser].tokens -= 1;
        players[to].tokens += 1;
        log(format!(
            "  {} gives a token to {}",
            players[loser].name, players[to].name
        ));
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
    let legs = match via {
        None => moves.walk(s, t, announced as usize),
        Some(v) => {
            let p = board.position(v);
            let first = moves.path(s, p);
            first.and_then(|first| {
                let rest = (announced as usize).checked_sub(first.len() - 1)?;
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
) -> Result<(), String> {
    moves.check(board, start, stops)?;
    if stops.last() != Some(&target) {
        return Err(format!("the robot does not end on {target}"));
    }
    if let Some(v) = via
        && !stops.contains(&v)
    {
        return Err(format!("the robot never stops on the waypoint {v}"));
    }
    if stops.len() != announced as usize {
        return Err(format!("{} moves instead of {announced}", stops.len()));
    }
    Ok(())
}
