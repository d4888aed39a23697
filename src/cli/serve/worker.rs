//! The placement worker: one thread taking the queue (the `jobs` table) in order. A newcomer
//! plays every program placed on its hill, over the hill's seeds, both colours (the
//! tournament's machinery: `tournament::play_all`, seeds from the programs' names); the
//! matches are stored a piece at a time, each piece in one transaction, each match once (a
//! unique key). Then the hill is ranked again and the last pushed off (`hill::crown`). A
//! killed server resumes the job at the next start: the stored matches are not played again.

use super::db::{Db, DbError};
use super::store::{self, MatchRow, Program, Status, seed_to_sql};
use robots::battle::compare::tournament::hill::{crown, missing};
use robots::battle::compare::tournament::{
    Config, Entrant, Game, GameResult, Score, play_all, standings,
};
use robots::battle::engine::{Rules, Scenario};
use robots::battle::files::{board_file, match_file};
use robots::battle::show::report::{reason_code, reason_from_code};
use rusqlite::params;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

/// Matches played between two writes of their results.
const PIECE: usize = 200;

/// Wakes the worker when a submission is queued.
#[derive(Default)]
pub struct Bell {
    rung: Mutex<bool>,
    cv: Condvar,
}

impl Bell {
    pub fn ring(&self) {
        *self.rung.lock().unwrap_or_else(PoisonError::into_inner) = true;
        self.cv.notify_all();
    }

    fn wait(&self, timeout: Duration) {
        let rung = self.rung.lock().unwrap_or_else(PoisonError::into_inner);
        let (mut rung, _) = self
            .cv
            .wait_timeout_while(rung, timeout, |r| !*r)
            .unwrap_or_else(PoisonError::into_inner);
        *rung = false;
    }
}

/// A hill's matches, as the tournament numbers them.
pub struct Field {
    pub members: Vec<Program>,
    pub entrants: Vec<Entrant>,
    pub config: Config,
}

/// The tournament's configuration of a hill.
pub fn config(hill: &store::Hill) -> Result<Config, String> {
    let s = &hill.settings;
    let board = board_file::parse_board(&format!("{}.yaml", hill.name), &hill.board_text)
        .map_err(|_| "the hill's board does not load".to_string())?;
    Ok(Config {
        board: Arc::new(board),
        scenario: Scenario::from_number(u32::from(s.scenario)).ok_or("no such scenario")?,
        rules: Rules {
            rounds: s.rounds,
            ..Rules::with_keywords(s.keywords)
        },
        robots: usize::from(s.robots),
        seeds: s.seeds[0]..=s.seeds[1],
    })
}

/// A program as an entrant (checked when submitted: one that no longer loads is `None`).
pub fn entrant(p: &Program, hill: &store::Hill) -> Option<Entrant> {
    let program =
        match_file::parse_program_file_in(&p.name, &p.source, hill.settings.keywords).ok()?;
    Some(Entrant::single(
        p.name.clone(),
        program,
        p.source.as_str().into(),
    ))
}

/// A stored match between programs numbered by `index`, as the tournament keeps it.
pub fn game_result(m: &MatchRow, index: &HashMap<i64, usize>) -> Option<GameResult> {
    let (g, v) = (*index.get(&m.green.0)?, *index.get(&m.violet.0)?);
    let swapped = g > v;
    let green_score = match m.winner.as_str() {
        "green" => Score::Win,
        "violet" => Score::Loss,
        _ => Score::Draw,
    };
    Some(GameResult {
        game: Game {
            a: g.min(v),
            b: g.max(v),
            swapped,
            seed_index: m.seed_index,
        },
        seed: m.seed,
        score: if swapped {
            green_score.flip()
        } else {
            green_score
        },
        rounds: m.rounds,
        reason: reason_from_code(&m.reason)?,
    })
}

/// The worker's thread: takes jobs until `stop`.
pub fn run(db: Arc<Db>, threads: usize, stop: Arc<AtomicBool>, bell: Arc<Bell>) {
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool,
        Err(e) => {
            tracing::error!(error = %e, "the placement worker cannot start its threads");
            return;
        }
    };
    while !stop.load(Ordering::Relaxed) {
        match next_job(&db) {
            Ok(Some((job, program))) => match pool.install(|| place(&db, job, program, &stop)) {
                Ok(_) => {}
                Err(e) => {
                    tracing::error!(job, error = %e, "a placement failed; retried in 5 s");
                    bell.wait(Duration::from_secs(5));
                }
            },
            Ok(None) => bell.wait(Duration::from_secs(2)),
            Err(e) => {
                tracing::error!(error = %e, "the queue cannot be read; retried in 5 s");
                bell.wait(Duration::from_secs(5));
            }
        }
    }
}

/// Places every queued program now, on this thread (the tests; `serve` runs [`run`]).
#[cfg(test)]
pub fn drain(db: &Db) -> Result<usize, DbError> {
    let stop = AtomicBool::new(false);
    let mut placed = 0;
    for _ in 0..100_000 {
        let Some((job, program)) = next_job(db)? else {
            break;
        };
        placed += usize::from(place(db, job, program, &stop)?);
    }
    Ok(placed)
}

fn next_job(db: &Db) -> Result<Option<(i64, i64)>, DbError> {
    db.read(|c| {
        use rusqlite::OptionalExtension;
        c.query_row(
            "SELECT id, program FROM jobs WHERE state != 'done' ORDER BY id LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()
    })
}

fn finish_job(db: &Db, job: i64) -> Result<(), DbError> {
    db.write(|c| c.execute("UPDATE jobs SET state = 'done' WHERE id = ?1", params![job]))?;
    Ok(())
}

/// The hill of `program`, its placed programs and the newcomer, by name, with the matches
/// already stored between them.
fn field(
    db: &Db,
    program: &Program,
) -> Result<Option<(store::Hill, Field, Vec<GameResult>)>, DbError> {
    let Some(hill) = db.read(|c| store::hill_by_id(c, program.hill))? else {
        return Ok(None);
    };
    let Ok(config) = config(&hill) else {
        return Ok(None);
    };
    let mut members = db.read(|c| store::programs_of_hill(c, hill.id, &[Status::Placed]))?;
    members.retain(|p| p.id != program.id);
    members.push(program.clone());
    let mut entrants = Vec::new();
    let mut kept = Vec::new();
    for p in members {
        if let Some(e) = entrant(&p, &hill) {
            entrants.push(e);
            kept.push(p);
        }
    }
    let mut order: Vec<usize> = (0..kept.len()).collect();
    order.sort_by(|&i, &j| kept[i].name.cmp(&kept[j].name));
    let members: Vec<Program> = order.iter().map(|&i| kept[i].clone()).collect();
    let entrants: Vec<Entrant> = order.iter().map(|&i| entrants[i].clone()).collect();
    let index: HashMap<i64, usize> = members.iter().enumerate().map(|(i, p)| (p.id, i)).collect();
    let stored = db.read(|c| matches_among(c, hill.id, &index))?;
    let results = stored
        .iter()
        .filter_map(|m| game_result(m, &index))
        .collect();
    Ok(Some((
        hill,
        Field {
            members,
            entrants,
            config,
        },
        results,
    )))
}

/// The stored matches of a hill between the programs of `index`.
fn matches_among(
    c: &rusqlite::Connection,
    hill: i64,
    index: &HashMap<i64, usize>,
) -> rusqlite::Result<Vec<MatchRow>> {
    let all = store::hill_matches(c, hill)?;
    Ok(all
        .into_iter()
        .filter(|m| index.contains_key(&m.green.0) && index.contains_key(&m.violet.0))
        .collect())
}

/// Places one program; `Ok(true)` once placed (or pushed off), `Ok(false)` when stopped or
/// when the program no longer waits.
fn place(db: &Db, job: i64, id: i64, stop: &AtomicBool) -> Result<bool, DbError> {
    let Some(program) = db.read(|c| store::program(c, id))? else {
        finish_job(db, job)?;
        return Ok(false);
    };
    if !matches!(program.status, Status::Queued | Status::Playing) {
        finish_job(db, job)?;
        return Ok(false);
    }
    let Some((hill, field, results)) = field(db, &program)? else {
        db.write(|c| store::set_status(c, id, Status::Withdrawn))?;
        finish_job(db, job)?;
        return Ok(false);
    };
    let todo = missing(field.entrants.len(), &field.config.seeds, &results);
    let per = u64::from(field.config.seeds.end() - field.config.seeds.start()) + 1;
    let total = i64::try_from(2 * per * (field.members.len() as u64 - 1)).unwrap_or(i64::MAX);
    let done = total - i64::try_from(todo.len()).unwrap_or(0);
    db.write(|c| {
        c.execute(
            "UPDATE programs SET status = 'playing', games_total = ?2, games_done = ?3 WHERE id = ?1 AND status IN ('queued', 'playing')",
            params![id, total, done.max(0)],
        )?;
        c.execute("UPDATE jobs SET state = 'running' WHERE id = ?1", params![job])
    })?;
    tracing::info!(program = id, hill = %hill.name, matches = todo.len(), "placement");
    for piece in todo.chunks(PIECE) {
        if stop.load(Ordering::Relaxed) {
            return Ok(false);
        }
        let played = match play_all(&field.entrants, &field.config, piece, stop, &|| {}) {
            Ok(played) => played,
            Err(e) => {
                // The hill's settings cannot be played (refused when a hill is created).
                tracing::error!(program = id, hill = %hill.name, error = %e, "the placement cannot be played; the program is withdrawn");
                db.write(|c| store::set_status(c, id, Status::Withdrawn))?;
                finish_job(db, job)?;
                return Ok(false);
            }
        };
        let played: Vec<GameResult> = played.into_iter().flatten().collect();
        db.write(|c| store_piece(c, (hill.id, id), &field.members, &played))?;
    }
    if stop.load(Ordering::Relaxed) {
        return Ok(false);
    }
    let placed = db.write(|c| rank(c, job, &hill, &program))?;
    Ok(placed)
}

/// Stores the matches of one piece and the newcomer's progress, in one transaction.
fn store_piece(
    c: &mut rusqlite::Connection,
    (hill, id): (i64, i64),
    members: &[Program],
    played: &[GameResult],
) -> rusqlite::Result<()> {
    let tx = c.transaction()?;
    {
        let mut insert = tx.prepare_cached(
            "INSERT INTO matches (hill, green, violet, seed_index, seed, winner, rounds, reason) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT (green, violet, seed_index) DO NOTHING",
        )?;
        for r in played {
            let (green, violet) = if r.game.swapped {
                (r.game.b, r.game.a)
            } else {
                (r.game.a, r.game.b)
            };
            let green_score = if r.game.swapped {
                r.score.flip()
            } else {
                r.score
            };
            let winner = match green_score {
                Score::Win => "green",
                Score::Loss => "violet",
                Score::Draw => "draw",
            };
            insert.execute(params![
                hill,
                members[green].id,
                members[violet].id,
                r.game.seed_index,
                seed_to_sql(r.seed),
                winner,
                r.rounds,
                reason_code(r.reason)
            ])?;
        }
    }
    tx.execute(
        "UPDATE programs SET games_done = min(games_total, games_done + ?2) WHERE id = ?1",
        params![id, i64::try_from(played.len()).unwrap_or(0)],
    )?;
    tx.commit()
}

/// Ranks the hill with the newcomer and pushes off the last while it holds too many, in one
/// transaction with the placed set read again (a withdrawal meanwhile is taken into account:
/// the job is then played again for what is missing).
fn rank(
    c: &mut rusqlite::Connection,
    job: i64,
    hill: &store::Hill,
    program: &Program,
) -> rusqlite::Result<bool> {
    let tx = c.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let now_status = store::program(&tx, program.id)?.map(|p| p.status);
    if now_status != Some(Status::Playing) {
        tx.execute("UPDATE jobs SET state = 'done' WHERE id = ?1", params![job])?;
        tx.commit()?;
        return Ok(false);
    }
    let mut members = store::programs_of_hill(&tx, hill.id, &[Status::Placed])?;
    members.push(program.clone());
    members.retain(|p| entrant(p, hill).is_some());
    members.sort_by(|a, b| a.name.cmp(&b.name));
    let index: HashMap<i64, usize> = members.iter().enumerate().map(|(i, p)| (p.id, i)).collect();
    let stored = matches_among(&tx, hill.id, &index)?;
    let results: Vec<GameResult> = stored
        .iter()
        .filter_map(|m| game_result(m, &index))
        .collect();
    let seeds = hill.settings.seeds[0]..=hill.settings.seeds[1];
    if !missing(members.len(), &seeds, &results).is_empty() {
        // The hill changed under the placement: the job runs again for what is missing.
        return Ok(false);
    }
    let names: Vec<String> = members.iter().map(|p| p.name.clone()).collect();
    let crowned = crown(&names, &results, hill.settings.size);
    let epoch = hill_epoch(&tx, hill.id)? + 1;
    tx.execute(
        "UPDATE programs SET status = 'placed' WHERE id = ?1",
        params![program.id],
    )?;
    for &i in &crowned.pushed {
        tx.execute(
            "UPDATE programs SET status = 'off' WHERE id = ?1",
            params![members[i].id],
        )?;
    }
    let kept: Vec<String> = crowned.kept.iter().map(|&i| names[i].clone()).collect();
    let table = standings(&kept, &crowned.results);
    let now = super::db::now();
    for (rank, row) in table.rows.iter().enumerate() {
        let id = members[crowned.kept[row.entrant]].id;
        tx.execute(
            "INSERT INTO history (hill, epoch, program, rank, at) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![
                hill.id,
                epoch,
                id,
                i64::try_from(rank + 1).unwrap_or(0),
                now
            ],
        )?;
    }
    tx.execute(
        "UPDATE hills SET epoch = ?2 WHERE id = ?1",
        params![hill.id, epoch],
    )?;
    tx.execute("UPDATE jobs SET state = 'done' WHERE id = ?1", params![job])?;
    tx.commit()?;
    Ok(true)
}

fn hill_epoch(c: &rusqlite::Connection, hill: i64) -> rusqlite::Result<i64> {
    c.query_row(
        "SELECT epoch FROM hills WHERE id = ?1",
        params![hill],
        |r| r.get(0),
    )
}
