//! The placement queue in the database, shared by every worker of every machine
//! (docs/SCALE.md). A job (a newcomer to place) is *opened* once every earlier job of its
//! hill is done: the matches it lacks are cut into pieces. Workers claim pieces with a lease
//! (on PostgreSQL `FOR UPDATE SKIP LOCKED`), play them and store each match once (the
//! matches' unique key); a piece whose lease ran out is claimed again. When its pieces are
//! done, the job is *ranked*: the hill ranked again, the last pushed off — or, when the hill
//! changed meanwhile, opened again for what is missing. Opening and ranking run one at a time
//! (serial transactions), in job order on each hill: the standings are those one worker
//! taking the jobs in order would reach.

use super::tournament::{config, entrant, game_result};
use crate::db::ids::{HillId, JobId, PieceId, ProgramId};
use crate::db::sql::{Sql, SqlResult};
use crate::db::{DbError, dialect};
use crate::store::{self, Hill, MatchRow, Program, Status, seed_to_sql};
use robots_games::battle::compare::tournament::hill::{crown, missing};
use robots_games::battle::compare::tournament::{Game, GameResult, Score, standings};
use robots_games::battle::show::report::reason_code;
use rusqlite::params;
use std::collections::HashMap;

/// Matches in a piece.
pub const PIECE: usize = 40;

/// What the serial step did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Organised {
    /// A job's pieces were made (its id, how many).
    Opened(JobId, usize),
    /// A job ended: its program placed, or no longer waiting.
    Finished(JobId),
}

/// A claimed piece: the programs its games number (ids, by name) and the games.
#[derive(Clone, Debug)]
pub struct Piece {
    pub id: PieceId,
    pub job: JobId,
    pub members: String,
    pub games: Vec<Game>,
}

/// Jobs of the same hill with a smaller id not done yet.
const EARLIER_PENDING: &str = "EXISTS (SELECT 1 FROM jobs e JOIN programs q ON q.id = e.program \
     WHERE q.hill = p.hill AND e.id < j.id AND e.state != 'done')";

/// One serial step: ranks a job whose pieces are done, else opens the next job; `None` when
/// there is nothing to do but play pieces.
pub fn organise(c: &Sql) -> SqlResult<Option<Organised>> {
    c.transaction(true, |tx| {
        let ready: Option<(JobId, ProgramId)> = tx.query_opt(
            &format!(
                "SELECT j.id, j.program FROM jobs j JOIN programs p ON p.id = j.program \
                 WHERE j.state = 'running' \
                 AND NOT EXISTS (SELECT 1 FROM pieces x WHERE x.job = j.id AND x.state != 'done') \
                 AND NOT {EARLIER_PENDING} ORDER BY j.id LIMIT 1"
            ),
            &[],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        if let Some((job, program)) = ready {
            return rank(tx, job, program).map(Some);
        }
        let next: Option<(JobId, ProgramId)> = tx.query_opt(
            &format!(
                "SELECT j.id, j.program FROM jobs j JOIN programs p ON p.id = j.program \
                 WHERE j.state = 'queued' AND NOT {EARLIER_PENDING} ORDER BY j.id LIMIT 1"
            ),
            &[],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        match next {
            Some((job, program)) => open(tx, job, program).map(Some),
            None => Ok(None),
        }
    })
}

fn finish(c: &Sql, job: JobId) -> SqlResult<Organised> {
    c.execute("UPDATE jobs SET state = 'done' WHERE id = ?1", params![job])?;
    c.execute(
        "UPDATE pieces SET state = 'done' WHERE job = ?1 AND state != 'done'",
        params![job],
    )?;
    Ok(Organised::Finished(job))
}

/// A hill's placed programs with `program`, those that load, by name.
fn members(c: &Sql, hill: &Hill, program: &Program) -> SqlResult<Vec<Program>> {
    let mut members = store::programs_of_hill(c, hill.id, &[Status::Placed])?;
    members.retain(|p| p.id != program.id);
    members.push(program.clone());
    members.retain(|p| entrant(p, hill).is_some());
    members.sort_by(|a, b| a.name.cmp(&b.name).then(a.id.cmp(&b.id)));
    Ok(members)
}

/// The stored matches of a hill between `members`, numbered as they are.
fn results_among(c: &Sql, hill: HillId, members: &[Program]) -> SqlResult<Vec<GameResult>> {
    let index: HashMap<ProgramId, usize> =
        members.iter().enumerate().map(|(i, p)| (p.id, i)).collect();
    let all: Vec<MatchRow> = store::hill_matches(c, hill)?;
    Ok(all.iter().filter_map(|m| game_result(m, &index)).collect())
}

/// Makes the pieces of the matches a job's program lacks against its hill.
fn open(c: &Sql, job: JobId, id: ProgramId) -> SqlResult<Organised> {
    let Some(program) = store::program(c, id)? else {
        return finish(c, job);
    };
    if !matches!(program.status, Status::Queued | Status::Playing) {
        return finish(c, job);
    }
    let hill = store::hill_by_id(c, program.hill)?;
    let Some(hill) = hill.filter(|h| config(h).is_ok() && entrant(&program, h).is_some()) else {
        store::set_status(c, id, Status::Withdrawn)?;
        return finish(c, job);
    };
    let members = members(c, &hill, &program)?;
    let seeds = hill.settings.seeds[0]..=hill.settings.seeds[1];
    let todo = missing(members.len(), &seeds, &results_among(c, hill.id, &members)?);
    let per = u64::from(seeds.end() - seeds.start()) + 1;
    let total = i64::try_from(2 * per * (members.len() as u64 - 1)).unwrap_or(i64::MAX);
    let done = total - i64::try_from(todo.len()).unwrap_or(0);
    c.execute(
        "UPDATE programs SET status = 'playing', games_total = ?2, games_done = ?3 WHERE id = ?1",
        params![id, total, done.max(0)],
    )?;
    c.execute(
        "UPDATE jobs SET state = 'running' WHERE id = ?1",
        params![job],
    )?;
    let ids: Vec<ProgramId> = members.iter().map(|p| p.id).collect();
    let ids = serde_json::to_string(&ids).unwrap_or_default();
    for piece in todo.chunks(PIECE) {
        let games: Vec<(usize, usize, bool, u32)> = piece
            .iter()
            .map(|g| (g.a, g.b, g.swapped, g.seed_index))
            .collect();
        c.execute(
            "INSERT INTO pieces (job, members, games, state) VALUES (?1, ?2, ?3, 'queued')",
            params![job, ids, serde_json::to_string(&games).unwrap_or_default()],
        )?;
    }
    if let Some(sql) = dialect::announce(c.is_pg()) {
        c.batch(sql)?;
    }
    tracing::info!(program = id.get(), hill = %hill.name, matches = todo.len(), "placement opened");
    Ok(Organised::Opened(job, todo.len().div_ceil(PIECE)))
}

/// Ranks the hill with the job's program and pushes off the last while it holds too many;
/// opens the job again when matches are missing (the hill changed under the placement).
fn rank(c: &Sql, job: JobId, id: ProgramId) -> SqlResult<Organised> {
    let program = store::program(c, id)?;
    let Some(program) = program.filter(|p| p.status == Status::Playing) else {
        return finish(c, job);
    };
    let Some(hill) = store::hill_by_id(c, program.hill)? else {
        return finish(c, job);
    };
    let members = members(c, &hill, &program)?;
    let results = results_among(c, hill.id, &members)?;
    let seeds = hill.settings.seeds[0]..=hill.settings.seeds[1];
    if !missing(members.len(), &seeds, &results).is_empty() {
        return open(c, job, id);
    }
    let names: Vec<String> = members.iter().map(|p| p.name.clone()).collect();
    let crowned = crown(&names, &results, hill.settings.size);
    let epoch = 1 + c.query_row(
        "SELECT epoch FROM hills WHERE id = ?1",
        params![hill.id],
        |r| r.get::<i64>(0),
    )?;
    c.execute(
        "UPDATE programs SET status = 'placed' WHERE id = ?1",
        params![program.id],
    )?;
    for &i in &crowned.pushed {
        c.execute(
            "UPDATE programs SET status = 'off' WHERE id = ?1",
            params![members[i].id],
        )?;
    }
    let kept: Vec<String> = crowned.kept.iter().map(|&i| names[i].clone()).collect();
    let table = standings(&kept, &crowned.results);
    let now = crate::db::now();
    for (rank, row) in table.rows.iter().enumerate() {
        let member = members[crowned.kept[row.entrant]].id;
        c.execute(
            "INSERT INTO history (hill, epoch, program, rank, at) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![
                hill.id,
                epoch,
                member,
                i64::try_from(rank + 1).unwrap_or(0),
                now
            ],
        )?;
    }
    c.execute(
        "UPDATE hills SET epoch = ?2 WHERE id = ?1",
        params![hill.id, epoch],
    )?;
    tracing::info!(program = id.get(), hill = %hill.name, epoch, "placed");
    finish(c, job)
}

/// Claims the first piece nobody holds (queued, or its lease run out) for `worker`, until
/// `lease_ms` from now on the database's clock.
pub fn claim(c: &Sql, worker: &str, lease_ms: i64) -> SqlResult<Option<Piece>> {
    c.transaction(!c.is_pg(), |tx| {
        let now = tx.now_ms()?;
        let found: Option<(PieceId, JobId, String, String)> = tx.query_opt(
            &format!(
                "SELECT id, job, members, games FROM pieces \
                 WHERE state = 'queued' OR (state = 'running' AND lease < ?1) \
                 ORDER BY id LIMIT 1{}",
                dialect::claim(tx.is_pg())
            ),
            params![now],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )?;
        let Some((id, job, members, games)) = found else {
            return Ok(None);
        };
        tx.execute(
            "UPDATE pieces SET state = 'running', worker = ?2, lease = ?3, tries = tries + 1 WHERE id = ?1",
            params![id, worker, now + lease_ms],
        )?;
        let games: Vec<(usize, usize, bool, u32)> =
            serde_json::from_str(&games).unwrap_or_default();
        Ok(Some(Piece {
            id,
            job,
            members,
            games: games
                .into_iter()
                .map(|(a, b, swapped, seed_index)| Game {
                    a,
                    b,
                    swapped,
                    seed_index,
                })
                .collect(),
        }))
    })
}

/// Keeps a piece's lease while it is played; `false` when another worker holds it now.
pub fn renew(c: &Sql, piece: PieceId, worker: &str, lease_ms: i64) -> SqlResult<bool> {
    let now = c.now_ms()?;
    Ok(c.execute(
        "UPDATE pieces SET lease = ?3 WHERE id = ?1 AND worker = ?2 AND state = 'running'",
        params![piece, worker, now + lease_ms],
    )? == 1)
}

/// Gives a piece back unplayed (a worker stopping).
pub fn release(c: &Sql, piece: PieceId, worker: &str) -> SqlResult<()> {
    c.execute(
        "UPDATE pieces SET state = 'queued', lease = NULL WHERE id = ?1 AND worker = ?2 AND state = 'running'",
        params![piece, worker],
    )?;
    Ok(())
}

/// Stores a piece's matches (each once, whoever played it too) and the newcomer's progress,
/// and marks the piece done, in one transaction. The matches newly stored.
pub fn store_piece(
    c: &Sql,
    piece: &Piece,
    members: &[ProgramId],
    played: &[GameResult],
) -> SqlResult<usize> {
    c.transaction(false, |tx| {
        let hill: Option<HillId> = tx.query_opt(
            "SELECT p.hill FROM jobs j JOIN programs p ON p.id = j.program WHERE j.id = ?1",
            params![piece.job],
            |r| r.get(0),
        )?;
        let Some(hill) = hill else {
            return Ok(0);
        };
        let mut stored = 0;
        for r in played {
            let (green, violet) = if r.game.swapped {
                (r.game.b, r.game.a)
            } else {
                (r.game.a, r.game.b)
            };
            let (Some(&green), Some(&violet)) = (members.get(green), members.get(violet)) else {
                continue;
            };
            let green_score = if r.game.swapped {
                r.score.flip()
            } else {
                r.score
            };
            let winner = winner(green_score);
            stored += tx.execute(
                "INSERT INTO matches (hill, green, violet, seed_index, seed, winner, rounds, reason) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT (green, violet, seed_index) DO NOTHING",
                params![
                    hill,
                    green,
                    violet,
                    r.game.seed_index,
                    seed_to_sql(r.seed),
                    winner,
                    r.rounds,
                    reason_code(r.reason)
                ],
            )?;
        }
        tx.execute(
            "UPDATE pieces SET state = 'done', lease = NULL WHERE id = ?1",
            params![piece.id],
        )?;
        tx.execute(
            "UPDATE programs SET games_done = CASE WHEN games_done + ?2 > games_total \
             THEN games_total ELSE games_done + ?2 END \
             WHERE id = (SELECT program FROM jobs WHERE id = ?1)",
            params![piece.job, i64::try_from(stored).unwrap_or(0)],
        )?;
        Ok(stored)
    })
}

/// The colour that won, from green's score: `green`, `violet` or `draw`, as stored.
pub fn winner(green: Score) -> &'static str {
    match green {
        Score::Win => "green",
        Score::Loss => "violet",
        Score::Draw => "draw",
    }
}

/// Gives back the pieces held by workers of this machine whose process is gone (a server or
/// worker killed, then started again: its pieces need not wait for their leases). A worker's
/// name is `{host}.{pid}.{n}`; a pid is alive while `/proc/{pid}` exists.
pub fn reclaim_dead(c: &Sql, host: &str) -> SqlResult<usize> {
    reclaim_dead_in(c, host, "pieces")
}

/// `reclaim_dead` on the claimed rows of `table` (`pieces`, `challenges`, `event_pieces`:
/// each with `state`, `worker` and `lease`).
pub fn reclaim_dead_in(c: &Sql, host: &str, table: &str) -> SqlResult<usize> {
    let held: Vec<(i64, String)> = c.query(
        &format!("SELECT id, worker FROM {table} WHERE state = 'running' AND worker IS NOT NULL"),
        &[],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let mut freed = 0;
    for (id, worker) in held {
        if is_dead(&worker, host) {
            freed += c.execute(
                &format!(
                    "UPDATE {table} SET state = 'queued', lease = NULL \
                     WHERE id = ?1 AND worker = ?2 AND state = 'running'"
                ),
                params![id, worker],
            )?;
        }
    }
    Ok(freed)
}

/// Whether the worker named `worker` was of this machine's process that is gone, or of this
/// process (which starts its workers afresh).
pub fn is_dead(worker: &str, host: &str) -> bool {
    let Some(pid) = worker
        .strip_prefix(host)
        .and_then(|rest| rest.strip_prefix('.'))
        .and_then(|rest| rest.split('.').next())
        .and_then(|pid| pid.parse::<u32>().ok())
    else {
        return false;
    };
    pid == std::process::id() || !std::path::Path::new(&format!("/proc/{pid}")).exists()
}

/// A lease kept while a piece of work plays: [`KeptLease::tick`] (called after every match)
/// renews it once a third of it has passed since the claim or the last renewal. The placement
/// worker, challenges and events share it.
pub struct KeptLease {
    last: std::sync::Mutex<std::time::Instant>,
    every: std::time::Duration,
}

impl KeptLease {
    pub fn new(lease: std::time::Duration) -> KeptLease {
        KeptLease {
            last: std::sync::Mutex::new(std::time::Instant::now()),
            every: lease / 3,
        }
    }

    /// Runs `renew` when a third of the lease has passed; a failure is logged (the work goes
    /// on: at worst another worker plays it again, and each match is stored once).
    pub fn tick<T>(&self, what: &str, id: i64, renew: impl FnOnce() -> Result<T, DbError>) {
        let mut last = self
            .last
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if last.elapsed() >= self.every {
            *last = std::time::Instant::now();
            if let Err(e) = renew() {
                tracing::warn!(what, id, error = %e, "a lease cannot be renewed");
            }
        }
    }
}
