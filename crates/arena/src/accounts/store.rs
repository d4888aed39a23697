//! The queries of an account's own controls: its API tokens (listed, revoked, their last use
//! recorded), its password changed, every secret ended, and the account deleted. Bound
//! parameters only; the same SQL on both databases.

use crate::db::ids::{AccountId, RoomId};
use crate::db::sql::{Sql, SqlResult};
use crate::store::Account;
use rusqlite::params;
use serde::Serialize;

/// How long a deleted account's name is kept from new accounts: 30 days, in seconds.
pub const COOLING_OFF: i64 = 30 * 24 * 3600;

/// A token's last use is written at most once in this many seconds.
pub const USE_GRAIN: i64 = 60;

/// An API token as its account sees it (never its secret, which is not kept).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TokenRow {
    pub id: i64,
    /// Seconds since 1970.
    pub created: i64,
    /// Its last use, to the minute; `None` when never used.
    pub used: Option<i64>,
}

/// The account a secret of `kind` opens (unless expired), and the secret's last recorded use.
pub fn token_account(
    c: &Sql,
    hash: &[u8],
    kind: &str,
    now: i64,
) -> SqlResult<Option<(Account, Option<i64>)>> {
    c.query_opt(
        "SELECT a.id, a.name, a.admin, t.used FROM tokens t JOIN accounts a ON a.id = t.account \
         WHERE t.hash = ?1 AND t.kind = ?2 AND (t.expires IS NULL OR t.expires > ?3)",
        params![hash, kind, now],
        crate::store::account_row,
    )
}

/// Records a secret's use at `now`, unless it was recorded less than a minute ago (so that a
/// script's requests cost one write a minute, not one each).
pub fn touch(c: &Sql, hash: &[u8], now: i64) -> SqlResult<()> {
    c.execute(
        "UPDATE tokens SET used = ?2 WHERE hash = ?1 AND (used IS NULL OR used <= ?3)",
        params![hash, now, now - USE_GRAIN],
    )?;
    Ok(())
}

/// Whether a secret's last recorded use is old enough to record again.
pub fn stale(used: Option<i64>, now: i64) -> bool {
    used.is_none_or(|u| u <= now - USE_GRAIN)
}

/// An account's API tokens, oldest first.
pub fn tokens(c: &Sql, account: AccountId) -> SqlResult<Vec<TokenRow>> {
    c.query(
        "SELECT id, created, used FROM tokens WHERE account = ?1 AND kind = 'api' ORDER BY id",
        params![account],
        |r| {
            Ok(TokenRow {
                id: r.get(0)?,
                created: r.get(1)?,
                used: r.get(2)?,
            })
        },
    )
}

/// Revokes an API token of the account; false when it has none of that id.
pub fn revoke(c: &Sql, account: AccountId, id: i64) -> SqlResult<bool> {
    Ok(c.execute(
        "DELETE FROM tokens WHERE id = ?1 AND account = ?2 AND kind = 'api'",
        params![id, account],
    )? == 1)
}

/// An account's password hash (none for a deleted account).
pub fn password(c: &Sql, account: AccountId) -> SqlResult<Option<String>> {
    c.query_opt(
        "SELECT password FROM accounts WHERE id = ?1 AND deleted IS NULL",
        params![account],
        |r| r.get(0),
    )
}

/// Sets a new password and ends every session and token of the account but `keep` (the
/// session that asked, by its hash). One transaction; returns the secrets ended.
pub fn set_password(
    c: &Sql,
    account: AccountId,
    hash: &str,
    keep: Option<&[u8]>,
) -> SqlResult<usize> {
    c.transaction(false, |tx| {
        tx.execute(
            "UPDATE accounts SET password = ?2 WHERE id = ?1",
            params![account, hash],
        )?;
        end_secrets(tx, account, keep)
    })
}

/// Ends every session and token of the account but `keep`; returns how many.
pub fn end_secrets(c: &Sql, account: AccountId, keep: Option<&[u8]>) -> SqlResult<usize> {
    match keep {
        Some(keep) => c.execute(
            "DELETE FROM tokens WHERE account = ?1 AND hash != ?2",
            params![account, keep],
        ),
        None => c.execute("DELETE FROM tokens WHERE account = ?1", params![account]),
    }
}

/// When a name held by a deleted account is free again, if it is not yet at `now`.
pub fn retired_until(c: &Sql, name: &str, now: i64) -> SqlResult<Option<i64>> {
    c.query_opt(
        "SELECT free_at FROM retired_names WHERE name = ?1 AND free_at > ?2",
        params![name.to_ascii_lowercase(), now],
        |r| r.get(0),
    )
}

/// What a deletion did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Deleted {
    /// Programs taken off their hills (they were queued, playing or placed).
    pub withdrawn: usize,
    /// Programs whose texts were erased (all of the account's).
    pub erased: usize,
    /// Rooms ended (the account hosted them or sat in them).
    pub rooms: usize,
}

/// Deletes an account, in one serial transaction: its live programs withdrawn (their hills'
/// standings change, as a withdrawal's do), every one of its programs' texts overwritten, the
/// rooms it hosted or sat in removed with their stored programs, views and messages, its
/// sessions and tokens ended, its name and password replaced (no name signs in to it, no
/// password opens it), and its name kept from new accounts until `now + COOLING_OFF`. The
/// programs and matches stay (their opponents' records), under the name `(deleted ID)`.
///
/// On SQLite the transaction runs with `secure_delete` (the space the old texts took is
/// overwritten with zeros) and is followed by a checkpoint that truncates the write-ahead
/// log, so that the texts leave the database's files. PostgreSQL keeps an old row version
/// until its space is vacuumed and reused (docs/ARENA.md).
pub fn delete(c: &Sql, account: AccountId, now: i64) -> SqlResult<Option<Deleted>> {
    if c.is_pg() {
        return delete_rows(c, account, now);
    }
    c.batch("PRAGMA secure_delete = ON")?;
    let deleted = delete_rows(c, account, now);
    c.batch("PRAGMA secure_delete = OFF")?;
    let deleted = deleted?;
    c.query_row("PRAGMA wal_checkpoint(TRUNCATE)", &[], |r| r.get::<i64>(0))?;
    Ok(deleted)
}

fn delete_rows(c: &Sql, account: AccountId, now: i64) -> SqlResult<Option<Deleted>> {
    c.transaction(true, |tx| {
        let name: Option<String> = tx.query_opt(
            "SELECT name FROM accounts WHERE id = ?1 AND deleted IS NULL",
            params![account],
            |r| r.get(0),
        )?;
        let Some(name) = name else {
            return Ok(None);
        };
        tx.execute(
            "UPDATE hills SET epoch = epoch + 1 WHERE id IN (SELECT hill FROM programs \
             WHERE account = ?1 AND status IN ('queued', 'playing', 'placed'))",
            params![account],
        )?;
        let withdrawn = tx.execute(
            "UPDATE programs SET status = 'withdrawn' WHERE account = ?1 \
             AND status IN ('queued', 'playing', 'placed')",
            params![account],
        )?;
        let erased = tx.execute(
            "UPDATE programs SET source = '', published = 0 WHERE account = ?1",
            params![account],
        )?;
        // The kept replays of its matches (they hold no text, but the matches answer 410).
        crate::replays::store::erase_account(tx, account)?;
        // Its challenges' unsaved texts too; a challenge not yet played whose side was the
        // account's (its text now erased) is ended, its matches played so far kept.
        tx.execute(
            "UPDATE challenges SET source = '' WHERE account = ?1 AND source IS NOT NULL",
            params![account],
        )?;
        tx.execute(
            "UPDATE challenges SET state = 'done', worker = NULL, lease = NULL \
             WHERE state <> 'done' AND (account = ?1 \
             OR opponent IN (SELECT id FROM programs WHERE account = ?1))",
            params![account],
        )?;
        let rooms: Vec<RoomId> = tx.query(
            "SELECT id FROM rooms WHERE host = ?1 \
             OR id IN (SELECT room FROM room_seats WHERE account = ?1) ORDER BY id",
            params![account],
            |r| r.get(0),
        )?;
        for room in &rooms {
            for table in ["room_inbox", "room_published", "room_actions", "room_seats"] {
                tx.execute(
                    &format!("DELETE FROM {table} WHERE room = ?1"),
                    params![room],
                )?;
            }
            tx.execute("DELETE FROM rooms WHERE id = ?1", params![room])?;
        }
        end_secrets(tx, account, None)?;
        tx.execute(
            "UPDATE accounts SET name = ?2, password = '!', admin = 0, deleted = ?3 WHERE id = ?1",
            params![account, format!("(deleted {account})"), now],
        )?;
        tx.execute(
            "INSERT INTO retired_names (name, free_at) VALUES (?1, ?2) \
             ON CONFLICT (name) DO UPDATE SET free_at = excluded.free_at",
            params![name.to_ascii_lowercase(), now + COOLING_OFF],
        )?;
        if let Some(sql) = crate::db::dialect::announce(tx.is_pg()) {
            tx.batch(sql)?;
        }
        Ok(Some(Deleted {
            withdrawn,
            erased,
            rooms: rooms.len(),
        }))
    })
}

/// Whether a match has a side whose account was deleted (its text is erased: the match
/// cannot be played again).
pub fn match_erased(c: &Sql, id: crate::db::ids::MatchId) -> SqlResult<bool> {
    c.query_row(
        "SELECT count(*) FROM matches m JOIN programs p ON p.id IN (m.green, m.violet) \
         JOIN accounts a ON a.id = p.account WHERE m.id = ?1 AND a.deleted IS NOT NULL",
        params![id],
        |r| r.get::<i64>(0),
    )
    .map(|n| n > 0)
}
