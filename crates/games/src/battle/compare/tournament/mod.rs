//! Comparing programs (docs/TOURNAMENTS.md): head-to-head duels and round-robin tournaments.
//! Each side's team is K copies of one program; every pairing is played with both colour
//! assignments over a range of seed indices. A match's seed derives from the two programs'
//! names, the colour assignment and the seed index — never from the order the matches are
//! played in — so results are the same on one thread or many, sharded or not.
//!
//! Pure: the caller reads the programs and prints; a stop flag and a tick callback let it
//! show progress and stop early.

mod game;
pub mod hill;
pub mod hill_file;
pub mod parts;
mod rating;
mod standings;

pub use game::{Game, GameResult, Score};
pub use rating::{Rating, bradley_terry, wilson};
pub use standings::{HeadToHead, Standing, Standings, standings};

use crate::battle::board::Board;
use crate::battle::engine::{
    Match, MatchSetup, Prepared, RobotSetup, Rules, Scenario, SetupError, TeamSetup,
};
use crate::battle::lang::Program;
use crate::battle::terrain::TeamColour;
use crate::parallel::prelude::*;
use std::ops::RangeInclusive;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The most programs a tournament takes: a round robin of 1,000 is half a million pairings.
pub const MAX_ENTRANTS: usize = 1_000;

/// A program in a tournament, under its name (a file's stem or a shipped name).
#[derive(Clone, Debug)]
pub struct Entrant {
    pub name: String,
    /// The programs of its robots, in order: one program (a team of K copies), or a team
    /// file's list, taken in turn (robot i plays member i modulo their number).
    pub members: Vec<Member>,
}

/// One program of an entrant.
#[derive(Clone, Debug)]
pub struct Member {
    pub program: Arc<Program>,
    /// Its text, for replays of its matches.
    pub source: Arc<str>,
    /// Where it came from (a file or a shipped name).
    pub origin: String,
}

impl Entrant {
    /// An entrant whose every robot runs `program`.
    pub fn single(name: String, program: Program, source: Arc<str>) -> Entrant {
        Entrant {
            members: vec![Member {
                program: Arc::new(program),
                source,
                origin: name.clone(),
            }],
            name,
        }
    }
}

/// What every match of a tournament shares.
#[derive(Clone, Debug)]
pub struct Config {
    pub board: Arc<Board>,
    pub scenario: Scenario,
    pub rules: Rules,
    /// Robots a side: K copies of the side's program.
    pub robots: usize,
    /// The seed indices each pairing is played with, per colour assignment.
    pub seeds: RangeInclusive<u32>,
}

/// Every match of a round robin of `n` entrants, in a fixed order: pairings `a < b` in
/// order, then green `a`, then green `b`, each over the seed indices.
pub fn schedule(n: usize, seeds: &RangeInclusive<u32>) -> Vec<Game> {
    let mut games = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            for swapped in [false, true] {
                for seed_index in seeds.clone() {
                    games.push(Game {
                        a,
                        b,
                        swapped,
                        seed_index,
                    });
                }
            }
        }
    }
    games
}

/// The number of matches [`schedule`] gives, computed without building it.
pub fn schedule_len(n: usize, seeds: &RangeInclusive<u32>) -> u64 {
    let pairs = (n as u64) * (n.saturating_sub(1) as u64) / 2;
    let per_seed = u64::from(seeds.end().saturating_sub(*seeds.start())) + 1;
    let per_seed = if seeds.is_empty() { 0 } else { per_seed };
    pairs * 2 * per_seed
}

/// The seed of a match, from the names of the programs (green's first), and the seed index:
/// FNV-1a over the bytes, mixed by SplitMix64. The same on every machine.
pub fn game_seed(green: &str, violet: &str, seed_index: u32) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    eat(green.as_bytes());
    eat(&[0]);
    eat(violet.as_bytes());
    eat(&[0]);
    eat(&seed_index.to_le_bytes());
    let mut z = h.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The entrants of `game` as green and violet: `a`'s program is green unless swapped.
fn sides(entrants: &[Entrant], game: Game) -> (&Entrant, &Entrant) {
    if game.swapped {
        (&entrants[game.b], &entrants[game.a])
    } else {
        (&entrants[game.a], &entrants[game.b])
    }
}

/// The match of `game`: green plays `a`'s program (or `b`'s, swapped), violet the other.
pub fn setup(entrants: &[Entrant], config: &Config, game: Game) -> MatchSetup {
    let (green, violet) = sides(entrants, game);
    let team = |colour, e: &Entrant| TeamSetup {
        colour,
        robots: (0..config.robots)
            .map(|i| {
                let m = &e.members[i % e.members.len().max(1)];
                RobotSetup {
                    program: Arc::clone(&m.program),
                    origin: m.origin.clone(),
                    source: Arc::clone(&m.source),
                    at: None,
                    facing: None,
                }
            })
            .collect(),
    };
    MatchSetup {
        name: format!("{} v {} #{}", green.name, violet.name, game.seed_index),
        board: Arc::clone(&config.board),
        scenario: config.scenario,
        rules: config.rules,
        seed: game_seed(&green.name, &violet.name, game.seed_index),
        teams: vec![
            team(TeamColour::Green, green),
            team(TeamColour::Violet, violet),
        ],
        signals: Vec::new(),
    }
}

/// Plays one match to its end.
pub fn play(entrants: &[Entrant], config: &Config, game: Game) -> Result<GameResult, SetupError> {
    play_prepared(
        entrants,
        &Prepared::new(&setup(entrants, config, game))?,
        game,
    )
}

/// Plays `game` from the prepared setup of its pairing and sides.
fn play_prepared(
    entrants: &[Entrant],
    prepared: &Prepared,
    game: Game,
) -> Result<GameResult, SetupError> {
    let (green, violet) = sides(entrants, game);
    let seed = game_seed(&green.name, &violet.name, game.seed_index);
    let mut m = prepared.start(seed)?;
    let outcome = m.play_out().cloned().ok_or(SetupError::NoTeams)?;
    let a_green = !game.swapped;
    let score = match outcome.winner {
        None => Score::Draw,
        Some(TeamColour::Green) if a_green => Score::Win,
        Some(TeamColour::Green) => Score::Loss,
        Some(_) if a_green => Score::Loss,
        Some(_) => Score::Win,
    };
    Ok(GameResult {
        game,
        seed,
        score,
        rounds: outcome.rounds,
        reason: outcome.reason,
    })
}

/// The most games played from one prepared setup in a row: pieces small enough to keep
/// every core busy on a duel, big enough that preparing costs little.
const PIECE: usize = 16;

/// Plays `games` in parallel on the current rayon pool. The results come in the order of
/// `games`, whatever the number of threads; a game not played because `stop` was set is
/// `None`. `tick` is called once per game played. Games of one pairing and sides share one
/// prepared setup (`engine::Prepared`), in pieces of at most [`PIECE`].
pub fn play_all(
    entrants: &[Entrant],
    config: &Config,
    games: &[Game],
    stop: &AtomicBool,
    tick: &(dyn Fn() + Sync),
) -> Result<Vec<Option<GameResult>>, SetupError> {
    let key = |g: &Game| (g.a, g.b, g.swapped);
    let mut order: Vec<usize> = (0..games.len()).collect();
    order.sort_by_key(|&i| (key(&games[i]), i));
    let pieces: Vec<&[usize]> = order
        .chunk_by(|&x, &y| key(&games[x]) == key(&games[y]))
        .flat_map(|run| run.chunks(PIECE))
        .collect();
    let played = pieces
        .par_iter()
        .map(|piece| {
            let mut out = Vec::with_capacity(piece.len());
            let mut prepared = None;
            for &i in *piece {
                if stop.load(Ordering::Relaxed) {
                    out.push((i, None));
                    continue;
                }
                let prepared = match &mut prepared {
                    Some(p) => p,
                    None => prepared.insert(Prepared::new(&setup(entrants, config, games[i]))?),
                };
                out.push((i, Some(play_prepared(entrants, prepared, games[i])?)));
                tick();
            }
            Ok(out)
        })
        .collect::<Result<Vec<_>, SetupError>>()?;
    let mut results = vec![None; games.len()];
    for (i, result) in played.into_iter().flatten() {
        results[i] = result;
    }
    Ok(results)
}

/// Checks that a tournament can be played before any match is: the match of the first
/// pairing sets up (the board has camps and start points for K robots a side).
pub fn check(entrants: &[Entrant], config: &Config) -> Result<(), SetupError> {
    if entrants.len() < 2 {
        return Ok(());
    }
    let game = Game {
        a: 0,
        b: 1,
        swapped: false,
        seed_index: *config.seeds.start(),
    };
    Match::new(&setup(entrants, config, game)).map(|_| ())
}

#[cfg(test)]
mod tests;
