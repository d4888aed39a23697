//! The rooms' queries: a room, its seats, its log of decisions (the stored types are
//! `room.rs`). Bound parameters only. Every write of a room's game is made by its owner and
//! guarded by its generation (`fenced`).

use crate::db::DbError;
use crate::db::dialect;
use crate::db::ids::{AccountId, RoomId};
use crate::db::sql::{Sql, SqlResult};
use rusqlite::params;

pub use super::room::{Fence, Listed, Owner, Player, RoomRow, RoomState, Seat, Settings};

/// Runs `write` in a transaction opened by the room's guard (`dialect::room_guard`):
/// `DbError::Fenced`, and nothing written, when `owner` no longer owns the room.
pub fn fenced<T>(
    c: &Sql,
    Fence { room, owner }: Fence,
    write: impl FnOnce(&Sql) -> SqlResult<T>,
) -> SqlResult<T> {
    c.transaction(false, |tx| {
        let guard = dialect::room_guard(tx.is_pg());
        let held = if tx.is_pg() {
            let lock = dialect::room_lock(room);
            tx.execute(guard, params![room, owner.generation, owner.session, lock])?
        } else {
            tx.execute(guard, params![room, owner.generation])?
        };
        if held == 0 {
            return Err(DbError::Fenced);
        }
        write(tx)
    })
}

/// Creates a room with a seat for each of `colours`, in order.
pub fn insert(
    c: &Sql,
    (code, host): (&str, AccountId),
    settings: &Settings,
    colours: &[&str],
    (seed, now): (u64, i64),
) -> SqlResult<RoomId> {
    let json = serde_json::to_string(settings).unwrap_or_default();
    let id: RoomId = c.query_row(
        "INSERT INTO rooms (code, game, host, settings, seed, state, created) VALUES (?1, ?6, ?2, ?3, ?4, 'writing', ?5) RETURNING id",
        params![code, host, json, crate::store::seed_to_sql(seed), now, settings.game],
        |r| r.get(0),
    )?;
    for (place, colour) in colours.iter().enumerate() {
        c.execute(
            "INSERT INTO room_seats (room, colour, place) VALUES (?1, ?2, ?3)",
            params![id, colour, i64::try_from(place).unwrap_or(0)],
        )?;
    }
    Ok(id)
}

pub fn by_code(c: &Sql, code: &str) -> SqlResult<Option<RoomRow>> {
    let found = c
        .query_opt(
            "SELECT r.id, r.code, r.host, a.name, r.settings, r.seed, r.state, r.turn, r.paused, r.pace, r.generation \
             FROM rooms r JOIN accounts a ON a.id = r.host WHERE r.code = ?1",
            params![code],
            |r| {
                let settings: String = r.get(4)?;
                let seed: i64 = r.get(5)?;
                let state: String = r.get(6)?;
                let (id, host) = (r.get(0)?, r.get(2)?);
                let turn: i64 = r.get(7)?;
                let settings = serde_json::from_str(&settings).ok();
                Ok(settings.zip(state.parse().ok()).map(|(settings, state)| RoomRow {
                    id,
                    code: r.get(1).unwrap_or_default(),
                    host,
                    host_name: r.get(3).unwrap_or_default(),
                    settings,
                    seed: u64::from_ne_bytes(i64::to_ne_bytes(seed)),
                    state,
                    turn: u64::try_from(turn).unwrap_or(0),
                    paused: r.get(8).unwrap_or_default(),
                    pace: r.get(9).unwrap_or_default(),
                    owner: Owner {
                        generation: r.get(10).unwrap_or_default(),
                        session: 0,
                    },
                }))
            },
        )
        ?;
    Ok(found.flatten())
}

pub fn seats(c: &Sql, room: RoomId) -> SqlResult<Vec<Seat>> {
    c.query(
        "SELECT s.colour, s.account, a.name, s.source, s.ready, s.armed FROM room_seats s \
         LEFT JOIN accounts a ON a.id = s.account WHERE s.room = ?1 ORDER BY s.place",
        params![room],
        |r| {
            let account: Option<AccountId> = r.get(1)?;
            let name: Option<String> = r.get(2)?;
            let armed: Option<String> = r.get(5)?;
            Ok(Seat {
                colour: r.get(0)?,
                player: account
                    .zip(name)
                    .map(|(account, name)| Player { account, name }),
                source: r.get(3)?,
                ready: r.get(4)?,
                armed: armed.and_then(|a| serde_json::from_str(&a).ok()),
            })
        },
    )
}

pub fn set_seat(c: &Sql, fence: Fence, seat: &Seat) -> SqlResult<()> {
    fenced(c, fence, |c| write_seat(c, fence.room, seat))
}

fn write_seat(c: &Sql, room: RoomId, seat: &Seat) -> SqlResult<()> {
    c.execute(
        "UPDATE room_seats SET account = ?3, source = ?4, ready = ?5, armed = ?6 WHERE room = ?1 AND colour = ?2",
        params![
            room,
            seat.colour,
            seat.player.as_ref().map(|p| p.account),
            seat.source,
            seat.ready,
            seat.armed.as_ref().and_then(|a| serde_json::to_string(a).ok())
        ],
    )?;
    Ok(())
}

/// The game's state, the turn reached, and the host's pause and pace.
pub fn set_state(
    c: &Sql,
    fence: Fence,
    (state, turn): (RoomState, u64),
    (paused, pace): (bool, f64),
) -> SqlResult<()> {
    fenced(c, fence, |c| {
        c.execute(
            "UPDATE rooms SET state = ?2, turn = ?3, paused = ?4, pace = ?5 WHERE id = ?1",
            params![
                fence.room,
                state,
                i64::try_from(turn).unwrap_or(i64::MAX),
                paused,
                pace
            ],
        )?;
        Ok(())
    })
}

pub fn actions(c: &Sql, room: RoomId) -> SqlResult<Vec<String>> {
    c.query(
        "SELECT action FROM room_actions WHERE room = ?1 ORDER BY seq",
        params![room],
        |r| r.get(0),
    )
}

/// Stores a decision after those before it, and with it, when given, a seat as it stands
/// after the decision (a signal sent leaves its seat unarmed): both or neither.
pub fn push_action(c: &Sql, fence: Fence, action: &str, seat: Option<&Seat>) -> SqlResult<()> {
    fenced(c, fence, |c| {
        c.execute(
            "INSERT INTO room_actions (room, seq, action) VALUES (?1, (SELECT coalesce(max(seq), 0) + 1 FROM room_actions WHERE room = ?1), ?2)",
            params![fence.room, action],
        )?;
        if let Some(seat) = seat {
            write_seat(c, fence.room, seat)?;
        }
        Ok(())
    })
}

/// The rooms an account hosts or sits in, newest first.
pub fn rooms_of(c: &Sql, account: AccountId) -> SqlResult<Vec<Listed>> {
    c.query("SELECT DISTINCT r.code, a.name, r.state, r.id FROM rooms r JOIN accounts a ON a.id = r.host \
         LEFT JOIN room_seats s ON s.room = r.id WHERE r.host = ?1 OR s.account = ?1 ORDER BY r.id DESC LIMIT 50", params![account], |r| Ok(Listed { code: r.get(0)?, host: r.get(1)?, state: r.get(2)? }))
}

/// Rooms still being played (resumed when the server starts).
pub fn live_codes(c: &Sql) -> SqlResult<Vec<String>> {
    c.query(
        "SELECT code FROM rooms WHERE state = 'playing' ORDER BY id",
        &[],
        |r| r.get(0),
    )
}

/// Rooms an account created since `since`.
pub fn created_since(c: &Sql, host: AccountId, since: i64) -> SqlResult<i64> {
    c.query_row(
        "SELECT count(*) FROM rooms WHERE host = ?1 AND created > ?2",
        params![host, since],
        |r| r.get(0),
    )
}
