//! The arena's queries: accounts, tokens, hills, programs, matches and the history, every
//! value through bound parameters. Blocking, on a connection of `db/`.

use super::db::ids::{AccountId, HillId, MatchId, ProgramId};
use super::db::sql::{Row, Sql, SqlResult};
use robots_games::battle::compare::tournament::hill_file::HillSettings;
use robots_games::battle::lang::Keywords;
use rusqlite::params;
use serde::{Deserialize, Serialize};

/// Where a program stands (docs/ARENA.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Queued,
    Playing,
    Placed,
    Off,
    Replaced,
    Withdrawn,
}

impl Status {
    pub fn word(self) -> &'static str {
        match self {
            Status::Queued => "queued",
            Status::Playing => "playing",
            Status::Placed => "placed",
            Status::Off => "off",
            Status::Replaced => "replaced",
            Status::Withdrawn => "withdrawn",
        }
    }

    pub fn from_word(word: &str) -> Status {
        match word {
            "queued" => Status::Queued,
            "playing" => Status::Playing,
            "placed" => Status::Placed,
            "off" => Status::Off,
            "replaced" => Status::Replaced,
            _ => Status::Withdrawn,
        }
    }

    /// Whether the program holds its name on its hill (waiting, playing or placed).
    pub fn live(self) -> bool {
        matches!(self, Status::Queued | Status::Playing | Status::Placed)
    }
}

/// An account, as a request's caller.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    pub id: AccountId,
    pub name: String,
    pub admin: bool,
}

/// A hill and its settings.
#[derive(Clone, Debug)]
pub struct Hill {
    pub id: HillId,
    pub name: String,
    pub settings: HillSettings,
    pub board_text: String,
    pub epoch: i64,
    /// Programs placed on it.
    pub programs: i64,
}

/// A program (its source is read only where it may be shown or played).
#[derive(Clone, Debug)]
pub struct Program {
    pub id: ProgramId,
    pub hill: HillId,
    pub hill_name: String,
    pub account: AccountId,
    pub author: String,
    pub name: String,
    pub source: String,
    pub published: bool,
    pub status: Status,
    pub submitted: i64,
    pub games_done: i64,
    pub games_total: i64,
    /// Which version of its name on its hill (1 for the first submission; `versions/`).
    pub version: u32,
}

/// A side of a stored match: its program.
#[derive(Clone, Debug)]
pub struct MatchSide {
    pub id: ProgramId,
    pub name: String,
}

/// A match as stored: green and violet by program id and name.
#[derive(Clone, Debug)]
pub struct MatchRow {
    pub id: MatchId,
    pub hill: String,
    pub green: MatchSide,
    pub violet: MatchSide,
    pub seed_index: u32,
    pub seed: u64,
    /// `green`, `violet` or `draw`.
    pub winner: String,
    pub rounds: u32,
    pub reason: String,
}

/// A seed (u64) as SQLite's signed integer, bit for bit.
pub fn seed_to_sql(seed: u64) -> i64 {
    i64::from_ne_bytes(seed.to_ne_bytes())
}

/// A seed back from SQLite's signed integer.
pub fn seed_from_sql(v: i64) -> u64 {
    u64::from_ne_bytes(v.to_ne_bytes())
}

fn int<T: TryFrom<i64> + Default>(v: i64) -> T {
    T::try_from(v).unwrap_or_default()
}

/// Creates an account; `None` when the name is taken, in any case (`Alice` beside `alice`:
/// the unique index of the names folded, migration 5).
pub fn account_insert(c: &Sql, name: &str, hash: &str, now: i64) -> SqlResult<Option<AccountId>> {
    c.query_opt(
        "INSERT INTO accounts (name, password, created) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING RETURNING id",
        params![name, hash, now],
        |r| r.get(0),
    )
}

/// An account from columns id, name, admin, then `T` from the fourth.
pub(crate) fn account_row<T: rusqlite::types::FromSql>(r: &Row) -> SqlResult<(Account, T)> {
    Ok((
        Account {
            id: r.get(0)?,
            name: r.get(1)?,
            admin: r.get(2)?,
        },
        r.get(3)?,
    ))
}

/// An account and its password hash, by name in any case: the account of exactly that name,
/// else the one holding it folded (`ALICE` opens `alice`; a look-alike kept from before
/// migration 5 opens by its exact name only).
pub fn account_by_name(c: &Sql, name: &str) -> SqlResult<Option<(Account, String)>> {
    c.query_opt(
        "SELECT id, name, admin, password FROM accounts \
         WHERE name = ?1 OR (lower(name) = ?2 AND alike = 0) ORDER BY name = ?1 DESC LIMIT 1",
        params![name, name.to_ascii_lowercase()],
        account_row,
    )
}

pub fn set_admin(c: &Sql, name: &str) -> SqlResult<bool> {
    Ok(c.execute(
        "UPDATE accounts SET admin = 1 WHERE name = ?1",
        params![name],
    )? == 1)
}

pub fn token_insert(
    c: &Sql,
    account: AccountId,
    hash: &[u8],
    kind: &str,
    csrf: Option<&str>,
    (now, expires): (i64, Option<i64>),
) -> SqlResult<()> {
    c.execute(
        "INSERT INTO tokens (account, hash, kind, csrf, created, expires) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![account, hash, kind, csrf, now, expires],
    )?;
    Ok(())
}

pub fn token_delete(c: &Sql, hash: &[u8]) -> SqlResult<()> {
    c.execute("DELETE FROM tokens WHERE hash = ?1", params![hash])?;
    Ok(())
}

const HILL_COLUMNS: &str = "h.id, h.name, h.size, h.seed_first, h.seed_last, h.board, h.board_text, \
    h.scenario, h.robots, h.rounds, h.keywords, h.epoch, \
    (SELECT count(*) FROM programs p WHERE p.hill = h.id AND p.status = 'placed')";

fn hill_row(r: &Row) -> SqlResult<Hill> {
    let keywords: String = r.get(10)?;
    Ok(Hill {
        id: r.get(0)?,
        name: r.get(1)?,
        settings: HillSettings {
            size: int(r.get(2)?),
            seeds: [int(r.get(3)?), int(r.get(4)?)],
            board: r.get(5)?,
            scenario: int(r.get(7)?),
            robots: int(r.get(8)?),
            rounds: int(r.get(9)?),
            keywords: Keywords::parse(&keywords).unwrap_or(Keywords::Plain),
        },
        board_text: r.get(6)?,
        epoch: r.get(11)?,
        programs: r.get(12)?,
    })
}

/// Creates a hill; `None` when the name is taken.
pub fn hill_insert(
    c: &Sql,
    name: &str,
    s: &HillSettings,
    board_text: &str,
    now: i64,
) -> SqlResult<Option<HillId>> {
    c.query_opt(
        "INSERT INTO hills (name, size, seed_first, seed_last, board, board_text, scenario, robots, rounds, keywords, created) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) ON CONFLICT (name) DO NOTHING RETURNING id",
        params![
            name,
            i64::try_from(s.size).unwrap_or(i64::MAX),
            s.seeds[0],
            s.seeds[1],
            s.board,
            board_text,
            s.scenario,
            s.robots,
            s.rounds,
            s.keywords.name(),
            now
        ],
        |r| r.get(0),
    )
}

pub fn hills(c: &Sql) -> SqlResult<Vec<Hill>> {
    c.query(
        &format!("SELECT {HILL_COLUMNS} FROM hills h ORDER BY h.name"),
        &[],
        hill_row,
    )
}

pub fn hill_by_name(c: &Sql, name: &str) -> SqlResult<Option<Hill>> {
    c.query_opt(
        &format!("SELECT {HILL_COLUMNS} FROM hills h WHERE h.name = ?1"),
        params![name],
        hill_row,
    )
}

pub fn hill_by_id(c: &Sql, id: HillId) -> SqlResult<Option<Hill>> {
    c.query_opt(
        &format!("SELECT {HILL_COLUMNS} FROM hills h WHERE h.id = ?1"),
        params![id],
        hill_row,
    )
}

const PROGRAM_COLUMNS: &str = "p.id, p.hill, h.name, p.account, a.name, p.name, p.source, p.published, \
    p.status, p.submitted, p.games_done, p.games_total, \
    (SELECT count(*) FROM programs q WHERE q.hill = p.hill AND q.name = p.name AND q.account = p.account AND q.id <= p.id) \
    FROM programs p JOIN hills h ON h.id = p.hill JOIN accounts a ON a.id = p.account";

fn program_row(r: &Row) -> SqlResult<Program> {
    let status: String = r.get(8)?;
    Ok(Program {
        id: r.get(0)?,
        hill: r.get(1)?,
        hill_name: r.get(2)?,
        account: r.get(3)?,
        author: r.get(4)?,
        name: r.get(5)?,
        source: r.get(6)?,
        published: r.get(7)?,
        status: Status::from_word(&status),
        submitted: r.get(9)?,
        games_done: r.get(10)?,
        games_total: r.get(11)?,
        version: int(r.get(12)?),
    })
}

pub fn program(c: &Sql, id: ProgramId) -> SqlResult<Option<Program>> {
    c.query_opt(
        &format!("SELECT {PROGRAM_COLUMNS} WHERE p.id = ?1"),
        params![id],
        program_row,
    )
}

/// The programs of a hill with one of `statuses`, by name.
pub fn programs_of_hill(c: &Sql, hill: HillId, statuses: &[Status]) -> SqlResult<Vec<Program>> {
    let all = c.query(
        &format!("SELECT {PROGRAM_COLUMNS} WHERE p.hill = ?1 ORDER BY p.name, p.id"),
        params![hill],
        program_row,
    )?;
    Ok(all
        .into_iter()
        .filter(|p| statuses.contains(&p.status))
        .collect())
}

/// Why a submission is refused before it is queued.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    /// The name is another account's on this hill.
    Taken,
    /// Too many submissions waiting.
    Busy,
    /// The account's hourly allowance is spent.
    TooMany,
}

/// Queues a program: its earlier live version of the same name is replaced. One transaction.
pub fn submit(
    c: &Sql,
    (account, hill): (AccountId, HillId),
    (name, source): (&str, &str),
    (now, queue, per_hour): (i64, u32, u32),
) -> SqlResult<Result<ProgramId, Refused>> {
    c.transaction(true, |tx| {
        let owner: Option<AccountId> = tx.query_opt(
            "SELECT account FROM programs WHERE hill = ?1 AND name = ?2 ORDER BY id LIMIT 1",
            params![hill, name],
            |r| r.get(0),
        )?;
        if owner.is_some_and(|o| o != account) {
            return Ok(Err(Refused::Taken));
        }
        let waiting: u32 = tx.query_row(
            "SELECT count(*) FROM jobs WHERE state != 'done'",
            &[],
            |r| r.get(0),
        )?;
        if waiting >= queue {
            return Ok(Err(Refused::Busy));
        }
        let recent: u32 = tx.query_row(
            "SELECT count(*) FROM programs WHERE account = ?1 AND submitted > ?2",
            params![account, now - 3600],
            |r| r.get(0),
        )?;
        if recent >= per_hour {
            return Ok(Err(Refused::TooMany));
        }
        tx.execute(
            "UPDATE programs SET status = 'replaced' WHERE hill = ?1 AND name = ?2 AND status IN ('queued', 'playing', 'placed')",
            params![hill, name],
        )?;
        let id: ProgramId = tx.query_row(
            "INSERT INTO programs (hill, account, name, source, status, submitted) VALUES (?1, ?2, ?3, ?4, 'queued', ?5) RETURNING id",
            params![hill, account, name, source, now],
            |r| r.get(0),
        )?;
        tx.execute(
            "INSERT INTO jobs (program, state, created) VALUES (?1, 'queued', ?2)",
            params![id, now],
        )?;
        if let Some(sql) = super::db::dialect::announce(tx.is_pg()) {
            tx.batch(sql)?;
        }
        Ok(Ok(id))
    })
}

/// Sets a program's status (withdrawn by its author or an administrator).
pub fn set_status(c: &Sql, id: ProgramId, status: Status) -> SqlResult<()> {
    c.execute(
        "UPDATE programs SET status = ?2 WHERE id = ?1",
        params![id, status.word()],
    )?;
    Ok(())
}

pub fn publish(c: &Sql, id: ProgramId) -> SqlResult<()> {
    c.execute(
        "UPDATE programs SET published = 1 WHERE id = ?1",
        params![id],
    )?;
    Ok(())
}

const MATCH_COLUMNS: &str = "m.id, h.name, m.green, g.name, m.violet, v.name, m.seed_index, m.seed, \
    m.winner, m.rounds, m.reason FROM matches m JOIN hills h ON h.id = m.hill \
    JOIN programs g ON g.id = m.green JOIN programs v ON v.id = m.violet";

fn match_row(r: &Row) -> SqlResult<MatchRow> {
    Ok(MatchRow {
        id: r.get(0)?,
        hill: r.get(1)?,
        green: MatchSide {
            id: r.get(2)?,
            name: r.get(3)?,
        },
        violet: MatchSide {
            id: r.get(4)?,
            name: r.get(5)?,
        },
        seed_index: r.get(6)?,
        seed: seed_from_sql(r.get(7)?),
        winner: r.get(8)?,
        rounds: r.get(9)?,
        reason: r.get(10)?,
    })
}

pub fn match_by_id(c: &Sql, id: MatchId) -> SqlResult<Option<MatchRow>> {
    c.query_opt(
        &format!("SELECT {MATCH_COLUMNS} WHERE m.id = ?1"),
        params![id],
        match_row,
    )
}

/// A program's matches, worst first: losses (quickest first), then draws, then wins.
pub fn matches_of(
    c: &Sql,
    program: ProgramId,
    limit: u32,
    offset: u32,
) -> SqlResult<Vec<MatchRow>> {
    c.query(
        &format!(
            "SELECT {MATCH_COLUMNS} WHERE m.green = ?1 OR m.violet = ?1 ORDER BY \
         CASE WHEN m.winner = 'draw' THEN 1 \
              WHEN (m.winner = 'green') = (m.green = ?1) THEN 2 ELSE 0 END, \
         m.rounds, m.id LIMIT ?2 OFFSET ?3"
        ),
        params![program, limit, offset],
        match_row,
    )
}

/// The matches between the placed programs of a hill.
pub fn placed_matches(c: &Sql, hill: HillId) -> SqlResult<Vec<MatchRow>> {
    c.query(&format!(
        "SELECT {MATCH_COLUMNS} WHERE m.hill = ?1 AND g.status = 'placed' AND v.status = 'placed'"
    ), params![hill], match_row)
}

/// A program's rank after one placement on its hill.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ranked {
    /// The hill's epoch the placement made.
    pub epoch: i64,
    /// 1 for the first.
    pub rank: i64,
}

/// A program's rank after each placement on its hill, by epoch.
pub fn history_of(c: &Sql, program: ProgramId) -> SqlResult<Vec<Ranked>> {
    c.query(
        "SELECT epoch, rank FROM history WHERE program = ?1 ORDER BY epoch",
        params![program],
        |r| {
            Ok(Ranked {
                epoch: r.get(0)?,
                rank: r.get(1)?,
            })
        },
    )
}

/// A line of a hill's history: where a program ranked after a placement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryLine {
    pub program: ProgramId,
    pub name: String,
    pub ranked: Ranked,
}

/// A hill's history, by epoch then rank.
pub fn history_of_hill(c: &Sql, hill: HillId) -> SqlResult<Vec<HistoryLine>> {
    c.query("SELECT h.program, p.name, h.epoch, h.rank FROM history h JOIN programs p ON p.id = h.program \
         WHERE h.hill = ?1 ORDER BY h.epoch, h.rank", params![hill], |r| {
        Ok(HistoryLine {
            program: r.get(0)?,
            name: r.get(1)?,
            ranked: Ranked {
                epoch: r.get(2)?,
                rank: r.get(3)?,
            },
        })
    })
}

/// The latest match won by one of two placed programs (placed: so neither's account is
/// deleted), for the home page; `None` on an arena without one.
pub fn recent_match(c: &Sql) -> SqlResult<Option<MatchRow>> {
    c.query_opt(
        &format!(
            "SELECT {MATCH_COLUMNS} WHERE g.status = 'placed' AND v.status = 'placed' \
             AND m.winner != 'draw' ORDER BY m.id DESC LIMIT 1"
        ),
        &[],
        match_row,
    )
}

/// Programs waiting for placement or being placed.
pub fn queued(c: &Sql) -> SqlResult<i64> {
    c.query_row(
        "SELECT count(*) FROM jobs WHERE state != 'done'",
        &[],
        |r| r.get(0),
    )
}

/// Every match of a hill.
pub fn hill_matches(c: &Sql, hill: HillId) -> SqlResult<Vec<MatchRow>> {
    c.query(
        &format!("SELECT {MATCH_COLUMNS} WHERE m.hill = ?1"),
        params![hill],
        match_row,
    )
}

/// Withdraws a program from its hill: the standings change (a new epoch), nothing is ranked
/// again (the others keep their places).
pub fn withdraw(c: &Sql, id: ProgramId) -> SqlResult<()> {
    c.transaction(true, |tx| {
        tx.execute(
            "UPDATE programs SET status = 'withdrawn' WHERE id = ?1 AND status IN ('queued', 'playing', 'placed')",
            params![id],
        )?;
        tx.execute(
            "UPDATE hills SET epoch = epoch + 1 WHERE id = (SELECT hill FROM programs WHERE id = ?1)",
            params![id],
        )?;
        Ok(())
    })
}
