//! Events on the workers: an event whose time has come (on the database's clock) is started
//! in a serial transaction — its programs taken as the hill ranks them then, the top N by
//! name given their seats, its round robin cut into pieces — then its pieces are claimed with
//! a lease once no placement piece waits (`worker::Worker::step`), played, and stored each
//! match once (the key of `event_matches`, the match's number in the schedule); a piece whose
//! lease ran out, or whose worker died, is played again and stores nothing twice. The last
//! piece stored ends the event (`done`), which nothing changes afterwards.

use super::Event;
use crate::db::ids::{EventId, EventPieceId, ProgramId};
use crate::db::sql::{Sql, SqlResult};
use crate::db::{Db, DbError, dialect};
use crate::store::{self, Status, seed_to_sql};
use crate::views::ranked;
use crate::worker::queue::{KeptLease, PIECE, reclaim_dead_in, winner};
use crate::worker::tournament::{config, entrant, game_result};
use robots_games::battle::compare::tournament::{Entrant, Game, GameResult, play_all, schedule};
use robots_games::battle::show::report::reason_code;
use rusqlite::params;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// A game of an event: its number in the schedule (from 1), and the game by seats.
type Numbered = (u32, Game);

/// Whether an event waits to start (a read: the serial start runs only then).
pub fn due(c: &Sql) -> SqlResult<bool> {
    let now = c.now_ms()?.div_euclid(1000);
    Ok(c.query_opt(
        "SELECT 1 FROM events WHERE state = 'scheduled' AND at <= ?1 LIMIT 1",
        params![now],
        |r| r.get::<i64>(0),
    )?
    .is_some())
}

/// Starts the first event whose time has come, in one serial transaction: its id.
pub fn start_due(c: &Sql) -> SqlResult<Option<EventId>> {
    c.transaction(true, |tx| {
        let now = tx.now_ms()?.div_euclid(1000);
        let found = tx.query_opt(
            "SELECT id FROM events WHERE state = 'scheduled' AND at <= ?1 ORDER BY at, id LIMIT 1",
            params![now],
            |r| r.get(0),
        )?;
        let Some(id) = found else {
            return Ok(None);
        };
        let Some(event) = super::event(tx, id)? else {
            return Ok(None);
        };
        start(tx, &event, now)?;
        Ok(Some(id))
    })
}

/// The hill's placed programs as its standings rank them now, best first, with their ranks.
fn standing(c: &Sql, event: &Event) -> SqlResult<Vec<(ProgramId, String, usize)>> {
    let members = store::programs_of_hill(c, event.hill, &[Status::Placed])?;
    let index: HashMap<ProgramId, usize> =
        members.iter().enumerate().map(|(i, p)| (p.id, i)).collect();
    let results: Vec<GameResult> = store::placed_matches(c, event.hill)?
        .iter()
        .filter_map(|m| game_result(m, &index))
        .collect();
    Ok(ranked(&members, &results)
        .into_iter()
        .map(|r| (r.id, r.name, r.rank))
        .collect())
}

/// Takes an event's programs (the top N standing now, seated by name) and queues its pieces.
fn start(c: &Sql, event: &Event, now: i64) -> SqlResult<()> {
    let mut chosen = standing(c, event)?;
    if let Some(top) = event.top {
        chosen.truncate(top as usize);
    }
    chosen.sort_by(|a, b| a.1.cmp(&b.1).then(a.0.cmp(&b.0)));
    for (seat, (program, _, rank)) in chosen.iter().enumerate() {
        c.execute(
            "INSERT INTO event_programs (event, seat, program, rank) VALUES (?1, ?2, ?3, ?4)",
            params![
                event.id,
                i64::try_from(seat).unwrap_or(i64::MAX),
                program,
                i64::try_from(*rank).unwrap_or(i64::MAX)
            ],
        )?;
    }
    let games: Vec<(u32, usize, usize, bool, u32)> = schedule(chosen.len(), &(1..=event.seeds))
        .into_iter()
        .zip(1..)
        .map(|(g, n)| (n, g.a, g.b, g.swapped, g.seed_index))
        .collect();
    for piece in games.chunks(PIECE) {
        c.execute(
            "INSERT INTO event_pieces (event, games, state) VALUES (?1, ?2, 'queued')",
            params![event.id, serde_json::to_string(piece).unwrap_or_default()],
        )?;
    }
    // An event of fewer than two programs has nothing to play: done at once.
    let (state, finished) = if games.is_empty() {
        ("done", Some(now))
    } else {
        ("running", None)
    };
    c.execute(
        "UPDATE events SET state = ?2, started = ?3, finished = ?4 WHERE id = ?1",
        params![event.id, state, now, finished],
    )?;
    if let Some(sql) = dialect::announce(c.is_pg()) {
        c.batch(sql)?;
    }
    tracing::info!(event = event.id.get(), hill = %event.hill_name, programs = chosen.len(), matches = games.len(), "event started");
    Ok(())
}

/// Claims the first event piece nobody holds (queued, or its lease run out) for `worker`.
pub(crate) fn claim(
    c: &Sql,
    worker: &str,
    lease_ms: i64,
) -> SqlResult<Option<(EventPieceId, EventId, Vec<Numbered>)>> {
    c.transaction(!c.is_pg(), |tx| {
        let now = tx.now_ms()?;
        let found: Option<(EventPieceId, EventId, String)> = tx.query_opt(
            &format!(
                "SELECT id, event, games FROM event_pieces \
                 WHERE state = 'queued' OR (state = 'running' AND lease < ?1) \
                 ORDER BY id LIMIT 1{}",
                dialect::claim(tx.is_pg())
            ),
            params![now],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )?;
        let Some((id, event, games)) = found else {
            return Ok(None);
        };
        tx.execute(
            "UPDATE event_pieces SET state = 'running', worker = ?2, lease = ?3, tries = tries + 1 \
             WHERE id = ?1",
            params![id, worker, now + lease_ms],
        )?;
        let games: Vec<(u32, usize, usize, bool, u32)> =
            serde_json::from_str(&games).unwrap_or_default();
        let games = games
            .into_iter()
            .map(|(n, a, b, swapped, seed_index)| {
                let game = Game {
                    a,
                    b,
                    swapped,
                    seed_index,
                };
                (n, game)
            })
            .collect();
        Ok(Some((id, event, games)))
    })
}

fn renew(c: &Sql, id: EventPieceId, worker: &str, lease_ms: i64) -> SqlResult<()> {
    let now = c.now_ms()?;
    c.execute(
        "UPDATE event_pieces SET lease = ?3 WHERE id = ?1 AND worker = ?2 AND state = 'running'",
        params![id, worker, now + lease_ms],
    )?;
    Ok(())
}

/// Gives a piece back unplayed (a worker stopping, or dead).
pub fn release(c: &Sql, id: EventPieceId, worker: &str) -> SqlResult<()> {
    c.execute(
        "UPDATE event_pieces SET state = 'queued', lease = NULL \
         WHERE id = ?1 AND worker = ?2 AND state = 'running'",
        params![id, worker],
    )?;
    Ok(())
}

/// Stores a piece's matches (each once, whoever played it too) and marks it done, in one
/// transaction; nothing once the event is done. The matches newly stored.
fn store_piece(
    c: &Sql,
    (id, event): (EventPieceId, EventId),
    seats: &[ProgramId],
    played: &[(u32, GameResult)],
) -> SqlResult<usize> {
    c.transaction(false, |tx| {
        let running = tx
            .query_opt(
                "SELECT 1 FROM events WHERE id = ?1 AND state = 'running'",
                params![event],
                |r| r.get::<i64>(0),
            )?
            .is_some();
        let mut stored = 0;
        for (n, r) in played.iter().filter(|_| running) {
            let (green, violet) = if r.game.swapped {
                (r.game.b, r.game.a)
            } else {
                (r.game.a, r.game.b)
            };
            let (Some(green), Some(violet)) = (seats.get(green), seats.get(violet)) else {
                continue;
            };
            let green_score = if r.game.swapped {
                r.score.flip()
            } else {
                r.score
            };
            stored += tx.execute(
                "INSERT INTO event_matches (event, number, green, violet, seed_index, seed, winner, rounds, reason) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) ON CONFLICT (event, number) DO NOTHING",
                params![
                    event,
                    n,
                    green,
                    violet,
                    r.game.seed_index,
                    seed_to_sql(r.seed),
                    winner(green_score),
                    r.rounds,
                    reason_code(r.reason)
                ],
            )?;
        }
        tx.execute(
            "UPDATE event_pieces SET state = 'done', lease = NULL WHERE id = ?1",
            params![id],
        )?;
        Ok(stored)
    })
}

/// Ends the event once every piece of it is done (serial: of two workers storing its last
/// pieces at once, the later sees both).
fn finish(c: &Sql, event: EventId) -> SqlResult<bool> {
    c.transaction(true, |tx| {
        let now = tx.now_ms()?.div_euclid(1000);
        Ok(tx.execute(
            "UPDATE events SET state = 'done', finished = ?2 WHERE id = ?1 AND state = 'running' \
             AND NOT EXISTS (SELECT 1 FROM event_pieces WHERE event = ?1 AND state != 'done')",
            params![event, now],
        )? == 1)
    })
}

/// What a piece is played with: the event's programs by seat, its entrants (those that
/// load, numbered apart) and the hill's configuration over the event's seeds.
struct Field {
    seats: Vec<ProgramId>,
    entrants: Vec<Entrant>,
    /// A seat's entrant, when its program loads.
    dense: Vec<Option<usize>>,
    config: robots_games::battle::compare::tournament::Config,
}

fn field(c: &Sql, event: EventId) -> SqlResult<Option<Field>> {
    let Some(e) = super::event(c, event)? else {
        return Ok(None);
    };
    let Some(hill) = store::hill_by_id(c, e.hill)? else {
        return Ok(None);
    };
    let Ok(mut config) = config(&hill) else {
        return Ok(None);
    };
    config.seeds = 1..=e.seeds.max(1);
    let programs = super::programs(c, event)?;
    let (mut entrants, mut dense) = (Vec::new(), Vec::new());
    for (p, _) in &programs {
        // A program whose text was erased since (its account deleted) plays no more.
        dense.push(entrant(p, &hill).map(|x| {
            entrants.push(x);
            entrants.len() - 1
        }));
    }
    Ok(Some(Field {
        seats: programs.iter().map(|(p, _)| p.id).collect(),
        entrants,
        dense,
        config,
    }))
}

/// Plays `games` on `field`: those whose two programs load, numbered as the schedule does.
fn play(
    field: &Field,
    games: &[Numbered],
    stop: &AtomicBool,
    tick: &(dyn Fn() + Sync),
) -> Option<Vec<(u32, GameResult)>> {
    let seat = |i: usize| field.dense.get(i).copied().flatten();
    let playable: Vec<(u32, Game, Game)> = games
        .iter()
        .filter_map(|&(n, g)| {
            let (a, b) = (seat(g.a)?, seat(g.b)?);
            Some((n, g, Game { a, b, ..g }))
        })
        .collect();
    let dense: Vec<Game> = playable.iter().map(|p| p.2).collect();
    let played = match play_all(&field.entrants, &field.config, &dense, stop, tick) {
        Ok(played) => played,
        Err(e) => {
            tracing::error!(error = %e, "an event's piece cannot be played");
            return Some(Vec::new());
        }
    };
    if played.iter().any(Option::is_none) {
        return None;
    }
    Some(
        playable
            .iter()
            .zip(played.into_iter().flatten())
            .map(|(&(n, game, _), r)| (n, GameResult { game, ..r }))
            .collect(),
    )
}

/// A worker's step on the events (once no placement piece or challenge waits): a piece
/// claimed, played with its lease kept, stored, and its event ended when it was the last;
/// the matches newly stored (0 when the worker stopped and gave it back); `None` when no
/// piece waits.
pub fn step(
    db: &Db,
    worker: &str,
    lease: Duration,
    stop: &AtomicBool,
) -> Result<Option<usize>, DbError> {
    let lease_ms = i64::try_from(lease.as_millis()).unwrap_or(i64::MAX);
    let Some((id, event, games)) = db.write(|c| claim(c, worker, lease_ms))? else {
        return Ok(None);
    };
    let Some(field) = db.read(|c| field(c, event))? else {
        tracing::warn!(event = event.get(), "an event cannot be played");
        db.write(|c| store_piece(c, (id, event), &[], &[]))?;
        db.write(|c| finish(c, event))?;
        return Ok(Some(0));
    };
    let kept = KeptLease::new(lease);
    let tick = || {
        kept.tick("event piece", id.get(), || {
            db.write(|c| renew(c, id, worker, lease_ms))
        });
    };
    let played = play(&field, &games, stop, &tick);
    let Some(played) = played.filter(|_| !stop.load(Ordering::Relaxed)) else {
        db.write(|c| release(c, id, worker))?;
        return Ok(Some(0));
    };
    let stored = db.write(|c| store_piece(c, (id, event), &field.seats, &played))?;
    if db.write(|c| finish(c, event))? {
        tracing::info!(event = event.get(), "event done");
    }
    Ok(Some(stored))
}

/// Gives back the event pieces held by dead workers of this machine (`queue::reclaim_dead`).
pub fn reclaim_dead(c: &Sql, host: &str) -> SqlResult<usize> {
    reclaim_dead_in(c, host, "event_pieces")
}
