//! The kept documents' queries (the table `match_replays`, migration 0011): one row a match,
//! the same SQL on both databases.

use super::{Kept, Played};
use crate::db::ids::{AccountId, MatchId};
use crate::db::sql::{Sql, SqlResult};
use bytes::Bytes;
use rusqlite::params;

/// The kept document of match `id`, when it was played as `played`.
pub fn get(c: &Sql, id: MatchId, played: Played) -> SqlResult<Option<Kept>> {
    let row = c.query_opt(
        "SELECT played, robots_start, robots_end, size, gz FROM match_replays WHERE match_id = ?1",
        params![id],
        |r| {
            Ok((
                r.get::<Vec<u8>>(0)?,
                (r.get::<i64>(1)?, r.get::<i64>(2)?),
                r.get::<i64>(3)?,
                r.get::<Vec<u8>>(4)?,
            ))
        },
    )?;
    let Some((stored, (start, end), size, gz)) = row else {
        return Ok(None);
    };
    if stored != played.0 {
        return Ok(None);
    }
    let (Ok(start), Ok(end), Ok(size)) = (
        usize::try_from(start),
        usize::try_from(end),
        usize::try_from(size),
    ) else {
        return Ok(None);
    };
    Ok(Some(Kept {
        played,
        gz: Bytes::from(gz),
        robots: (start, end),
        size,
    }))
}

/// Keeps the document of match `id` (replacing one played from other texts).
pub fn put(c: &Sql, id: MatchId, kept: &Kept) -> SqlResult<()> {
    let as_i64 = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
    c.execute(
        "INSERT INTO match_replays (match_id, played, robots_start, robots_end, size, gz) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (match_id) DO UPDATE SET \
         played = excluded.played, robots_start = excluded.robots_start, \
         robots_end = excluded.robots_end, size = excluded.size, gz = excluded.gz",
        params![
            id,
            kept.played.0.as_slice(),
            as_i64(kept.robots.0),
            as_i64(kept.robots.1),
            as_i64(kept.size),
            kept.gz.as_ref()
        ],
    )?;
    Ok(())
}

/// Removes the kept documents of every match of the account's programs (its deletion).
pub fn erase_account(c: &Sql, account: AccountId) -> SqlResult<usize> {
    c.execute(
        "DELETE FROM match_replays WHERE match_id IN (SELECT m.id FROM matches m \
         JOIN programs p ON p.id IN (m.green, m.violet) WHERE p.account = ?1)",
        params![account],
    )
}

/// Whether match `id` has a kept document, played from any texts.
pub fn kept(c: &Sql, id: MatchId) -> SqlResult<bool> {
    c.query_row(
        "SELECT count(*) FROM match_replays WHERE match_id = ?1",
        params![id],
        |r| r.get::<i64>(0),
    )
    .map(|n| n > 0)
}

/// [`kept`] on `db` (the tests).
#[cfg(test)]
pub fn kept_in(db: &crate::db::Db, id: MatchId) -> bool {
    db.read(|c| kept(c, id)).unwrap_or(false)
}

/// The kept documents and their bytes of gzip.
pub fn size(c: &Sql) -> SqlResult<(i64, i64)> {
    c.query_row(
        "SELECT count(*), COALESCE(SUM(length(gz)), 0) FROM match_replays",
        &[],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
}
