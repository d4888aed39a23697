//! Events (docs/ARENA.md, "Events"): an administrator's dated round robin among a hill's top
//! N programs (or all), over seed indices 1 to S, each pairing played both ways. An event is
//! a row of `events` (migration 10) until its time; then a worker takes its programs as they
//! stand on the hill — the versions placed then, in `event_programs`, so that a later
//! submission, rollback or withdrawal changes nothing of it — and cuts its matches into
//! pieces (`queue.rs`) that the workers claim with a lease once no placement piece waits,
//! play and store each once (the key of `event_matches`). Its matches are apart from the
//! hill's: never counted in the standings, the ratings or the rank history. When its last
//! piece is stored it is `done`: its table is computed from its own rows only, which nothing
//! changes afterwards. Its replays hide a program's steps and tests from whoever may not read
//! its text (`views::may_read`), as the hill's do. Here: the rows as stored and read; the API
//! in `api.rs`, the pages in `pages.rs`.

pub mod api;
pub mod pages;
pub mod queue;
#[cfg(test)]
pub(crate) mod tests;

use crate::api::bodies::{EventMatch, EventProgram, EventView};
use crate::db::ids::{EventId, HillId, ProgramId};
use crate::db::sql::{Row, Sql, SqlResult};
use crate::db::{Db, DbError, dialect};
use crate::store::{self, Hill, Program};
use crate::views::ranked;
use crate::worker::tournament::result_between;
use robots_games::battle::compare::tournament::{GameResult, schedule_len};
use rusqlite::params;

/// The most seeds an event plays (each pairing both ways on each).
pub const MAX_SEEDS: u32 = 100;
/// The most matches an event may play: programs × (programs − 1) × seeds.
pub const MAX_MATCHES: u64 = 20_000;
/// The most events a list shows (the newest).
pub const MAX_LISTED: u32 = 200;

/// When an event starts: now (the database's clock), or a time in seconds since 1970.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum At {
    Now,
    Seconds(i64),
}

/// Why an event is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("the time: RFC 3339 in UTC (2030-01-31T18:00:00Z) or `now`")]
    At,
    #[error("seeds: 1 to {MAX_SEEDS}")]
    Seeds,
    #[error("top: at least 2 programs")]
    Top,
    #[error("an event of {0} programs over {1} seeds plays {2} matches; at most {MAX_MATCHES}")]
    TooBig(u64, u32, u64),
}

/// A time as `at` takes it: `now`, or RFC 3339 in UTC to the second (`Z` or `+00:00`,
/// fractions of a second dropped).
pub fn parse_at(text: &str) -> Result<At, Refused> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("now") {
        return Ok(At::Now);
    }
    let rest = text
        .strip_suffix('Z')
        .or_else(|| text.strip_suffix('z'))
        .or_else(|| text.strip_suffix("+00:00"))
        .ok_or(Refused::At)?;
    let rest = rest.split('.').next().unwrap_or(rest);
    let b = rest.as_bytes();
    let shape = b.len() == 19
        && [4, 7].iter().all(|&i| b[i] == b'-')
        && matches!(b[10], b'T' | b't' | b' ')
        && [13, 16].iter().all(|&i| b[i] == b':');
    let number = |from: usize, to: usize| -> Result<i64, Refused> {
        let digits = rest.get(from..to).ok_or(Refused::At)?;
        if !digits.bytes().all(|c| c.is_ascii_digit()) {
            return Err(Refused::At);
        }
        digits.parse().map_err(|_| Refused::At)
    };
    if !shape {
        return Err(Refused::At);
    }
    let (y, m, d) = (number(0, 4)?, number(5, 7)?, number(8, 10)?);
    let (hh, mm, ss) = (number(11, 13)?, number(14, 16)?, number(17, 19)?);
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let days_in = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    let last_day = usize::try_from(m - 1)
        .ok()
        .and_then(|i| days_in.get(i))
        .copied()
        .unwrap_or(0);
    if d < 1 || d > last_day || hh > 23 || mm > 59 || ss > 59 {
        return Err(Refused::At);
    }
    // Days since 1970 of a civil date (Howard Hinnant's algorithm).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Ok(At::Seconds(days * 86_400 + hh * 3600 + mm * 60 + ss))
}

/// Checks an event's size on `hill`: at most `top` (else the hill's size) programs over
/// `seeds`.
pub fn check(hill: &Hill, top: Option<u32>, seeds: u32) -> Result<(), Refused> {
    if !(1..=MAX_SEEDS).contains(&seeds) {
        return Err(Refused::Seeds);
    }
    if top.is_some_and(|n| n < 2) {
        return Err(Refused::Top);
    }
    let size = hill.settings.size as u64;
    let n = top.map_or(size, |t| u64::from(t).min(size));
    let matches = schedule_len(usize::try_from(n).unwrap_or(usize::MAX), &(1..=seeds));
    if matches > MAX_MATCHES {
        return Err(Refused::TooBig(n, seeds, matches));
    }
    Ok(())
}

/// Schedules an event (checked by the caller): its id.
pub fn create(
    c: &Sql,
    hill: HillId,
    at: At,
    (top, seeds): (Option<u32>, u32),
) -> SqlResult<EventId> {
    c.transaction(false, |tx| {
        let now = tx.now_ms()?.div_euclid(1000);
        let at = match at {
            At::Now => now,
            At::Seconds(s) => s,
        };
        let id = tx.query_row(
            "INSERT INTO events (hill, at, top, seeds, state, created) \
             VALUES (?1, ?2, ?3, ?4, 'scheduled', ?5) RETURNING id",
            params![hill, at, top, seeds, now],
            |r| r.get(0),
        )?;
        if let Some(sql) = dialect::announce(tx.is_pg()) {
            tx.batch(sql)?;
        }
        Ok(id)
    })
}

/// Why an event cannot be scheduled.
#[derive(Debug, thiserror::Error)]
pub enum ScheduleError {
    #[error("no hill is named {}", robots_games::text::escape(.0))]
    NoHill(String),
    #[error(transparent)]
    Refused(#[from] Refused),
    #[error(transparent)]
    Db(#[from] DbError),
}

/// Schedules an event on the hill named `hill` at `at` (`parse_at`'s words), its top N (or
/// every program placed then) over `seeds`, within the limits: the event as stored.
pub fn schedule_on(
    db: &Db,
    hill: &str,
    at: &str,
    (top, seeds): (Option<u32>, u32),
) -> Result<Event, ScheduleError> {
    let at = parse_at(at)?;
    let found = db.read(|c| store::hill_by_name(c, hill))?;
    let hill = found.ok_or_else(|| ScheduleError::NoHill(hill.to_string()))?;
    check(&hill, top, seeds)?;
    let id = db.write(|c| create(c, hill.id, at, (top, seeds)))?;
    db.read(|c| event(c, id))?
        .ok_or(ScheduleError::Db(DbError::NoRow))
}

/// An event as stored.
#[derive(Clone, Debug)]
pub struct Event {
    pub id: EventId,
    pub hill: HillId,
    pub hill_name: String,
    pub at: i64,
    pub top: Option<u32>,
    pub seeds: u32,
    pub state: String,
    pub created: i64,
    pub started: Option<i64>,
    pub finished: Option<i64>,
}

const COLUMNS: &str = "e.id, e.hill, h.name, e.at, e.top, e.seeds, e.state, e.created, \
    e.started, e.finished FROM events e JOIN hills h ON h.id = e.hill";

fn row(r: &Row) -> SqlResult<Event> {
    Ok(Event {
        id: r.get(0)?,
        hill: r.get(1)?,
        hill_name: r.get(2)?,
        at: r.get(3)?,
        top: r
            .get::<Option<i64>>(4)?
            .map(|t| u32::try_from(t).unwrap_or(0)),
        seeds: u32::try_from(r.get::<i64>(5)?).unwrap_or(0),
        state: r.get(6)?,
        created: r.get(7)?,
        started: r.get(8)?,
        finished: r.get(9)?,
    })
}

pub fn event(c: &Sql, id: EventId) -> SqlResult<Option<Event>> {
    c.query_opt(
        &format!("SELECT {COLUMNS} WHERE e.id = ?1"),
        params![id],
        row,
    )
}

/// A hill's events, newest first.
pub fn of_hill(c: &Sql, hill: HillId) -> SqlResult<Vec<Event>> {
    c.query(
        &format!("SELECT {COLUMNS} WHERE e.hill = ?1 ORDER BY e.id DESC LIMIT {MAX_LISTED}"),
        params![hill],
        row,
    )
}

/// Every hill's events, newest first.
pub fn all(c: &Sql) -> SqlResult<Vec<Event>> {
    c.query(
        &format!("SELECT {COLUMNS} ORDER BY e.id DESC LIMIT {MAX_LISTED}"),
        &[],
        row,
    )
}

/// An event's programs by seat, each with its rank on the hill at the start.
pub fn programs(c: &Sql, id: EventId) -> SqlResult<Vec<(Program, u32)>> {
    let seats: Vec<(ProgramId, i64)> = c.query(
        "SELECT program, rank FROM event_programs WHERE event = ?1 ORDER BY seat",
        params![id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let mut out = Vec::with_capacity(seats.len());
    for (program, rank) in seats {
        if let Some(p) = store::program(c, program)? {
            out.push((p, u32::try_from(rank).unwrap_or(0)));
        }
    }
    Ok(out)
}

/// A stored match of an event, by seats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stored {
    pub number: u32,
    pub green: ProgramId,
    pub violet: ProgramId,
    pub seed_index: u32,
    pub seed: u64,
    pub winner: String,
    pub rounds: u32,
    pub reason: String,
}

const MATCH_COLUMNS: &str =
    "SELECT number, green, violet, seed_index, seed, winner, rounds, reason FROM event_matches";

fn match_row(r: &Row) -> SqlResult<Stored> {
    Ok(Stored {
        number: r.get(0)?,
        green: r.get(1)?,
        violet: r.get(2)?,
        seed_index: r.get(3)?,
        seed: store::seed_from_sql(r.get(4)?),
        winner: r.get(5)?,
        rounds: r.get(6)?,
        reason: r.get(7)?,
    })
}

/// An event's stored matches, by number.
pub fn matches(c: &Sql, id: EventId) -> SqlResult<Vec<Stored>> {
    c.query(
        &format!("{MATCH_COLUMNS} WHERE event = ?1 ORDER BY number"),
        params![id],
        match_row,
    )
}

/// An event's match `n`, if stored.
pub fn one_match(c: &Sql, id: EventId, n: u32) -> SqlResult<Option<Stored>> {
    c.query_opt(
        &format!("{MATCH_COLUMNS} WHERE event = ?1 AND number = ?2"),
        params![id, n],
        match_row,
    )
}

/// A stored match as the tournament keeps it, its programs numbered by seat.
fn result_of(m: &Stored, seats: &[ProgramId]) -> Option<GameResult> {
    let seat = |id| seats.iter().position(|&s| s == id);
    let sides = (seat(m.green)?, seat(m.violet)?);
    result_between(
        sides,
        m.seed_index,
        (m.seed, &m.winner),
        (m.rounds, &m.reason),
    )
}

/// How much of an event a view holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detail {
    /// Its programs and how far it is (lists).
    Summary,
    /// Also its table and every match.
    Full,
}

/// An event as the API shows it, from its own rows only: its programs, and in full its table
/// (final once done) and every match.
pub fn view(c: &Sql, e: &Event, detail: Detail) -> SqlResult<EventView> {
    let programs = programs(c, e.id)?;
    let members: Vec<Program> = programs.iter().map(|(p, _)| p.clone()).collect();
    let total = if e.started.is_some() {
        schedule_len(members.len(), &(1..=e.seeds))
    } else {
        0
    };
    let (played, table, matches) = if detail == Detail::Full {
        let stored = matches(c, e.id)?;
        let seats: Vec<ProgramId> = members.iter().map(|p| p.id).collect();
        let results: Vec<GameResult> = stored.iter().filter_map(|m| result_of(m, &seats)).collect();
        let table = ranked(&members, &results);
        (
            stored.len() as u64,
            table,
            Some(stored.into_iter().map(match_view).collect()),
        )
    } else {
        let n: i64 = c.query_row(
            "SELECT count(*) FROM event_matches WHERE event = ?1",
            params![e.id],
            |r| r.get(0),
        )?;
        (u64::try_from(n).unwrap_or(0), Vec::new(), None)
    };
    Ok(EventView {
        id: e.id,
        hill: e.hill_name.clone(),
        at: e.at,
        top: e.top,
        seeds: e.seeds,
        state: e.state.clone(),
        created: e.created,
        started: e.started,
        finished: e.finished,
        played,
        total,
        table,
        programs: programs
            .iter()
            .zip(0..)
            .map(|((p, rank), seat)| EventProgram {
                seat,
                id: p.id,
                name: p.name.clone(),
                author: p.author.clone(),
                version: p.version,
                rank: *rank,
            })
            .collect(),
        matches,
    })
}

fn match_view(m: Stored) -> EventMatch {
    EventMatch {
        n: m.number,
        green: m.green,
        violet: m.violet,
        seed_index: m.seed_index,
        seed: m.seed.to_string(),
        winner: m.winner,
        rounds: m.rounds,
        reason: m.reason,
    }
}
