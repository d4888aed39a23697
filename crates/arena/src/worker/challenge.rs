//! Challenges as stored and played (docs/ARENA.md, "Challenges"; their API and pages are in
//! `challenges/`): one's program — saved, or a text sent with the
//! challenge and checked as a submission is — against a program of its hill or a shipped
//! one, over 1 to 20 seeds, each seed played both ways. A challenge is a row of `challenges`
//! (migration 9) that a worker claims with a lease once no placement piece waits (placements
//! keep their priority), plays and stores in one transaction, each match once (the key of
//! `challenge_matches`). Its matches are apart from the hill's: they never reach the
//! standings, the ratings or the rank history. Its results and replays are the
//! challenger's; the opponent's author sees that it was played and its result; a replay
//! drops the steps and tests of an opponent the challenger may not read, as the hill's do.

use super::queue;
use super::tournament::{config, entrant, entrant_of};
use crate::db::ids::{AccountId, ChallengeId, HillId, ProgramId};
use crate::db::sql::{Row, Sql, SqlResult};
use crate::db::{Db, DbError, dialect};
use crate::store::{self, Hill, seed_to_sql};
use robots_games::battle::compare::tournament::{Entrant, Game, GameResult, Score, play_all};
use robots_games::battle::files::shipped;
use robots_games::battle::show::report::reason_code;
use rusqlite::params;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The most seeds a challenge plays (each both ways: 40 matches, a placement's piece).
pub const MAX_SEEDS: u32 = 20;

/// A challenge as stored (the challenger's text is read by the worker only).
#[derive(Clone, Debug)]
pub struct Challenge {
    pub id: ChallengeId,
    pub account: AccountId,
    /// The challenger's account name.
    pub challenger: String,
    pub hill: HillId,
    pub hill_name: String,
    /// The challenger's program, when it is a saved one.
    pub program: Option<ProgramId>,
    /// The challenger's side's name.
    pub name: String,
    /// The opponent, when a program of the hill: its id, its author's account and name.
    pub opponent: Option<(ProgramId, AccountId, String)>,
    /// The opponent's name (the program's, or the shipped program's).
    pub opponent_name: String,
    /// A shipped opponent's name.
    pub shipped: Option<String>,
    pub seeds: u32,
    /// `queued`, `running` or `done`.
    pub state: String,
    pub created: i64,
}

/// A challenge's match, from the challenger's side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub seed_index: u32,
    /// The challenger played green.
    pub green: bool,
    pub seed: u64,
    /// `green`, `violet` or `draw`.
    pub winner: String,
    pub rounds: u32,
    pub reason: String,
}

impl Played {
    /// The match's number in its challenge: seed 1 green, seed 1 violet, seed 2 green…
    pub fn number(&self) -> u32 {
        2 * self.seed_index.saturating_sub(1) + u32::from(!self.green)
    }

    /// How it ended for the challenger.
    pub fn score(&self) -> Score {
        match (self.winner.as_str(), self.green) {
            ("draw", _) => Score::Draw,
            ("green", true) | ("violet", false) => Score::Win,
            _ => Score::Loss,
        }
    }
}

/// Why a challenge is refused before it is queued.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// The account's challenges of the hour are spent: retry in so many seconds.
    Hourly(i64),
    /// Too many challenge matches wait overall.
    Queue,
}

/// The limits of `create`: challenges an account may make in an hour, and the challenge
/// matches that may wait overall.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub per_hour: u32,
    pub queue: u32,
}

/// The opponent of a new challenge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opponent {
    Program(ProgramId),
    Shipped(String),
}

/// The challenger's side of a new challenge.
#[derive(Clone, Debug)]
pub enum Side {
    Program(ProgramId, String),
    /// An unsaved text: its name and text.
    Text(String, String),
}

/// A new challenge, checked by the caller.
#[derive(Clone, Debug)]
pub struct New {
    pub account: AccountId,
    pub hill: HillId,
    pub side: Side,
    pub opponent: Opponent,
    pub seeds: u32,
}

const COLUMNS: &str = "c.id, c.account, a.name, c.hill, h.name, c.program, c.name, c.opponent, \
    o.account, oa.name, o.name, c.shipped, c.seeds, c.state, c.created FROM challenges c \
    JOIN accounts a ON a.id = c.account JOIN hills h ON h.id = c.hill \
    LEFT JOIN programs o ON o.id = c.opponent LEFT JOIN accounts oa ON oa.id = o.account";

fn row(r: &Row) -> SqlResult<Challenge> {
    let opponent: Option<ProgramId> = r.get(7)?;
    let author: Option<AccountId> = r.get(8)?;
    let author_name: Option<String> = r.get(9)?;
    let shipped: Option<String> = r.get(11)?;
    let opponent_name: Option<String> = r.get(10)?;
    Ok(Challenge {
        id: r.get(0)?,
        account: r.get(1)?,
        challenger: r.get(2)?,
        hill: r.get(3)?,
        hill_name: r.get(4)?,
        program: r.get(5)?,
        name: r.get(6)?,
        opponent: match (opponent, author, author_name) {
            (Some(p), Some(a), Some(n)) => Some((p, a, n)),
            _ => None,
        },
        opponent_name: opponent_name
            .or_else(|| shipped.clone())
            .unwrap_or_default(),
        shipped,
        seeds: u32::try_from(r.get::<i64>(12)?).unwrap_or(0),
        state: r.get(13)?,
        created: r.get(14)?,
    })
}

pub fn challenge(c: &Sql, id: ChallengeId) -> SqlResult<Option<Challenge>> {
    c.query_opt(
        &format!("SELECT {COLUMNS} WHERE c.id = ?1"),
        params![id],
        row,
    )
}

/// The challenges an account made or that met one of its programs, newest first.
pub fn of_account(c: &Sql, account: AccountId, limit: u32) -> SqlResult<Vec<Challenge>> {
    c.query(
        &format!(
            "SELECT {COLUMNS} WHERE c.account = ?1 OR o.account = ?1 ORDER BY c.id DESC LIMIT ?2"
        ),
        params![account, limit],
        row,
    )
}

/// The challenges made with a program or against it, newest first.
pub fn of_program(c: &Sql, program: ProgramId, limit: u32) -> SqlResult<Vec<Challenge>> {
    c.query(
        &format!(
            "SELECT {COLUMNS} WHERE c.program = ?1 OR c.opponent = ?1 ORDER BY c.id DESC LIMIT ?2"
        ),
        params![program, limit],
        row,
    )
}

/// The matches of a challenge played so far, in their numbers' order.
pub fn matches(c: &Sql, id: ChallengeId) -> SqlResult<Vec<Played>> {
    c.query(
        "SELECT seed_index, green, seed, winner, rounds, reason FROM challenge_matches \
         WHERE challenge = ?1 ORDER BY seed_index, green DESC",
        params![id],
        |r| {
            Ok(Played {
                seed_index: r.get(0)?,
                green: r.get::<i64>(1)? != 0,
                seed: store::seed_from_sql(r.get(2)?),
                winner: r.get(3)?,
                rounds: r.get(4)?,
                reason: r.get(5)?,
            })
        },
    )
}

/// Queues a challenge within the limits, in one serial transaction.
pub fn create(
    c: &Sql,
    new: &New,
    now: i64,
    limits: Limits,
) -> SqlResult<Result<ChallengeId, Limit>> {
    c.transaction(true, |tx| {
        let recent: Vec<i64> = tx.query(
            "SELECT created FROM challenges WHERE account = ?1 AND created > ?2 ORDER BY created",
            params![new.account, now - 3600],
            |r| r.get(0),
        )?;
        if recent.len() >= limits.per_hour as usize {
            // The oldest of the hour leaves it first.
            let at = recent.first().map_or(now, |&t| t + 3600);
            return Ok(Err(Limit::Hourly((at - now).max(1))));
        }
        let waiting: i64 = tx.query_row(
            "SELECT CAST(COALESCE(SUM(seeds), 0) AS BIGINT) FROM challenges WHERE state != 'done'",
            &[],
            |r| r.get(0),
        )?;
        if 2 * (waiting + i64::from(new.seeds)) > i64::from(limits.queue) {
            return Ok(Err(Limit::Queue));
        }
        let (program, name, source) = match &new.side {
            Side::Program(id, name) => (Some(*id), name.as_str(), None),
            Side::Text(name, source) => (None, name.as_str(), Some(source.as_str())),
        };
        let (opponent, shipped) = match &new.opponent {
            Opponent::Program(id) => (Some(*id), None),
            Opponent::Shipped(name) => (None, Some(name.as_str())),
        };
        let id: ChallengeId = tx.query_row(
            "INSERT INTO challenges (account, hill, program, name, source, opponent, shipped, seeds, state, created) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 'queued', ?9) RETURNING id",
            params![new.account, new.hill, program, name, source, opponent, shipped, new.seeds, now],
            |r| r.get(0),
        )?;
        if let Some(sql) = dialect::announce(tx.is_pg()) {
            tx.batch(sql)?;
        }
        Ok(Ok(id))
    })
}

/// A shipped program as an entrant on a hill (its keywords), if it loads there.
pub fn shipped_entrant(name: &str, hill: &Hill) -> Option<Entrant> {
    entrant_of(name, shipped::program(name)?, hill)
}

/// The two sides of a challenge as entrants: the challenger first; `None` when one no
/// longer loads (or its program is gone).
pub fn entrants(c: &Sql, ch: &Challenge, hill: &Hill) -> SqlResult<Option<[Entrant; 2]>> {
    let challenger = match ch.program {
        Some(id) => store::program(c, id)?.and_then(|p| entrant(&p, hill)),
        None => {
            let source: Option<String> = c.query_row(
                "SELECT source FROM challenges WHERE id = ?1",
                params![ch.id],
                |r| r.get(0),
            )?;
            source.and_then(|s| entrant_of(&ch.name, &s, hill))
        }
    };
    let opponent = match (&ch.opponent, &ch.shipped) {
        (Some((id, _, _)), _) => store::program(c, *id)?.and_then(|p| entrant(&p, hill)),
        (None, Some(name)) => shipped_entrant(name, hill),
        (None, None) => None,
    };
    Ok(challenger.zip(opponent).map(|(a, b)| [a, b]))
}

/// A challenge's games: each seed index with the challenger green, then violet.
pub fn games(seeds: u32) -> Vec<Game> {
    (1..=seeds)
        .flat_map(|seed_index| {
            [false, true].map(|swapped| Game {
                a: 0,
                b: 1,
                swapped,
                seed_index,
            })
        })
        .collect()
}

/// Claims the first challenge nobody plays (queued, or its lease run out) for `worker`.
fn claim(c: &Sql, worker: &str, lease_ms: i64) -> SqlResult<Option<ChallengeId>> {
    c.transaction(!c.is_pg(), |tx| {
        let now = tx.now_ms()?;
        let found: Option<ChallengeId> = tx.query_opt(
            &format!(
                "SELECT id FROM challenges WHERE state = 'queued' OR (state = 'running' AND lease < ?1) \
                 ORDER BY id LIMIT 1{}",
                dialect::claim(tx.is_pg())
            ),
            params![now],
            |r| r.get(0),
        )?;
        if let Some(id) = found {
            tx.execute(
                "UPDATE challenges SET state = 'running', worker = ?2, lease = ?3 WHERE id = ?1",
                params![id, worker, now + lease_ms],
            )?;
        }
        Ok(found)
    })
}

fn renew(c: &Sql, id: ChallengeId, worker: &str, lease_ms: i64) -> SqlResult<()> {
    let now = c.now_ms()?;
    c.execute(
        "UPDATE challenges SET lease = ?3 WHERE id = ?1 AND worker = ?2 AND state = 'running'",
        params![id, worker, now + lease_ms],
    )?;
    Ok(())
}

/// Gives a challenge back unplayed (a worker stopping, or dead).
pub fn release(c: &Sql, id: ChallengeId, worker: &str) -> SqlResult<()> {
    c.execute(
        "UPDATE challenges SET state = 'queued', lease = NULL WHERE id = ?1 AND worker = ?2 AND state = 'running'",
        params![id, worker],
    )?;
    Ok(())
}

/// Stores a challenge's matches (each once, whoever played it too) and marks it done, in
/// one transaction; the matches newly stored.
fn store_played(c: &Sql, id: ChallengeId, played: &[GameResult]) -> SqlResult<usize> {
    c.transaction(false, |tx| {
        let mut stored = 0;
        for r in played {
            let green = !r.game.swapped;
            let green_score = if green { r.score } else { r.score.flip() };
            let winner = queue::winner(green_score);
            stored += tx.execute(
                "INSERT INTO challenge_matches (challenge, seed_index, green, seed, winner, rounds, reason) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (challenge, seed_index, green) DO NOTHING",
                params![
                    id,
                    r.game.seed_index,
                    i64::from(green),
                    seed_to_sql(r.seed),
                    winner,
                    r.rounds,
                    reason_code(r.reason)
                ],
            )?;
        }
        tx.execute(
            "UPDATE challenges SET state = 'done', lease = NULL WHERE id = ?1",
            params![id],
        )?;
        Ok(stored)
    })
}

/// A worker's step on the challenges (once no placement piece waits): one challenge claimed,
/// its missing matches played with its lease kept, stored (the matches newly stored; 0 when
/// the worker stopped and gave it back); `None` when none waits.
pub fn step(
    db: &Db,
    worker: &str,
    lease: Duration,
    stop: &AtomicBool,
) -> Result<Option<usize>, DbError> {
    let lease_ms = i64::try_from(lease.as_millis()).unwrap_or(i64::MAX);
    let Some(id) = db.write(|c| claim(c, worker, lease_ms))? else {
        return Ok(None);
    };
    let loaded = db.read(|c| {
        let Some(ch) = challenge(c, id)? else {
            return Ok(None);
        };
        let Some(hill) = store::hill_by_id(c, ch.hill)? else {
            return Ok(None);
        };
        let Ok(mut config) = config(&hill) else {
            return Ok(None);
        };
        config.seeds = 1..=ch.seeds.max(1);
        let done = matches(c, id)?;
        let todo: Vec<Game> = games(ch.seeds)
            .into_iter()
            .filter(|g| {
                !done
                    .iter()
                    .any(|m| m.seed_index == g.seed_index && m.green != g.swapped)
            })
            .collect();
        Ok(entrants(c, &ch, &hill)?.map(|e| (e, config, todo)))
    })?;
    let Some((entrants, config, todo)) = loaded else {
        // A side or the hill no longer loads: the challenge ends with what it has.
        tracing::warn!(challenge = id.get(), "a challenge cannot be played");
        return Ok(Some(db.write(|c| store_played(c, id, &[]))?));
    };
    let kept = queue::KeptLease::new(lease);
    let tick = || {
        kept.tick("challenge", id.get(), || {
            db.write(|c| renew(c, id, worker, lease_ms))
        });
    };
    let played = match play_all(&entrants, &config, &todo, stop, &tick) {
        Ok(played) => played,
        Err(e) => {
            tracing::error!(challenge = id.get(), error = %e, "a challenge cannot be played");
            return Ok(Some(db.write(|c| store_played(c, id, &[]))?));
        }
    };
    if stop.load(Ordering::Relaxed) || played.iter().any(Option::is_none) {
        db.write(|c| release(c, id, worker))?;
        return Ok(Some(0));
    }
    let played: Vec<GameResult> = played.into_iter().flatten().collect();
    let stored = db.write(|c| store_played(c, id, &played))?;
    tracing::info!(challenge = id.get(), matches = stored, "challenge played");
    Ok(Some(stored))
}

/// Gives back the challenges held by dead workers of this machine (`queue::reclaim_dead`).
pub fn reclaim_dead(c: &Sql, host: &str) -> SqlResult<usize> {
    queue::reclaim_dead_in(c, host, "challenges")
}

#[cfg(test)]
/// Queues a challenge of 2 seeds directly (no limits reached).
pub fn queue_one(
    db: &Db,
    (account, hill): (AccountId, HillId),
    side: Side,
    opponent: Opponent,
) -> ChallengeId {
    let new = New {
        account,
        hill,
        side,
        opponent,
        seeds: 2,
    };
    let limits = Limits {
        per_hour: 1_000,
        queue: 100_000,
    };
    db.write(|c| create(c, &new, 0, limits)).unwrap().unwrap()
}
