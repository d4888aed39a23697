//! Every difference between the two databases' SQL, in one place: the migrations (a file
//! for each database at each version), numbered parameters, the clock, the serial lock and
//! the claim of a row no other worker holds, a room's lock and the guard of its writes. The
//! queries themselves are written once (`store.rs`, `worker/queue.rs`, `rooms/store.rs`) in
//! the SQL both understand.

/// SQLite's migrations, in order: migration i brings the schema to version i + 1.
pub const LITE_MIGRATIONS: [&str; 11] = [
    include_str!("migrations/sqlite/0001_init.sql"),
    include_str!("migrations/sqlite/0002_rooms.sql"),
    include_str!("migrations/sqlite/0003_micro_rooms.sql"),
    include_str!("migrations/sqlite/0004_pieces.sql"),
    include_str!("migrations/sqlite/0005_names.sql"),
    include_str!("migrations/sqlite/0006_room_owners.sql"),
    include_str!("migrations/sqlite/0007_accounts.sql"),
    include_str!("migrations/sqlite/0008_versions.sql"),
    include_str!("migrations/sqlite/0009_challenges.sql"),
    include_str!("migrations/sqlite/0010_events.sql"),
    include_str!("migrations/sqlite/0011_replays.sql"),
];

/// PostgreSQL's, version for version the same schema (types spelt PostgreSQL's way:
/// `BIGINT` identities, `BYTEA`, `DOUBLE PRECISION`).
pub const PG_MIGRATIONS: [&str; 11] = [
    include_str!("migrations/postgres/0001_init.sql"),
    include_str!("migrations/postgres/0002_rooms.sql"),
    include_str!("migrations/postgres/0003_micro_rooms.sql"),
    include_str!("migrations/postgres/0004_pieces.sql"),
    include_str!("migrations/postgres/0005_names.sql"),
    include_str!("migrations/postgres/0006_room_owners.sql"),
    include_str!("migrations/postgres/0007_accounts.sql"),
    include_str!("migrations/postgres/0008_versions.sql"),
    include_str!("migrations/postgres/0009_challenges.sql"),
    include_str!("migrations/postgres/0010_events.sql"),
    include_str!("migrations/postgres/0011_replays.sql"),
];

/// The clock in milliseconds since 1970.
pub const LITE_NOW_MS: &str = "SELECT CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)";
pub const PG_NOW_MS: &str = "SELECT CAST(extract(epoch FROM clock_timestamp()) * 1000 AS BIGINT)";

/// The lock a serial transaction takes first on PostgreSQL (held to its end), so that
/// transactions SQLite runs one at a time run one at a time on every server and worker.
pub const PG_SERIAL: &str = "SELECT pg_advisory_xact_lock(7262)";

/// The lock one migrating process holds (two servers starting at once migrate once).
pub const PG_MIGRATE_LOCK: &str = "SELECT pg_advisory_lock(7261)";
pub const PG_MIGRATE_UNLOCK: &str = "SELECT pg_advisory_unlock(7261)";

/// A room's advisory lock (PostgreSQL): apart from the serial and migration locks.
pub fn room_lock(room: super::ids::RoomId) -> i64 {
    (1 << 40) + room.get()
}

/// What opens every write of a room's state (its row, seats, decisions, published views,
/// taken messages): the room's row locked while the generation `?2` still owns it, so that a
/// new owner's take (which adds one to the generation) waits for the write and the writes of
/// an older owner change nothing (0 rows). On PostgreSQL, also while the writer's lock
/// session, backend `?3`, still holds the room's advisory lock `?4`: an owner whose lock went
/// with its connection writes nothing more, even before another server takes the room.
pub fn room_guard(pg: bool) -> &'static str {
    if pg {
        "UPDATE rooms SET generation = generation WHERE id = ?1 AND generation = ?2 AND EXISTS \
         (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid = ?3 \
         AND objsubid = 1 AND (classid::bigint << 32) + objid::bigint = ?4)"
    } else {
        "UPDATE rooms SET generation = generation WHERE id = ?1 AND generation = ?2"
    }
}

/// The channel a change of the placement queue is announced on (PostgreSQL): workers of
/// every machine listen to it.
pub const QUEUE_CHANNEL: &str = "robots_queue";

/// Announces a change of the queue, at the transaction's commit (PostgreSQL; SQLite's
/// workers share a process with its server and are rung directly).
pub fn announce(pg: bool) -> Option<&'static str> {
    pg.then_some("NOTIFY robots_queue")
}

/// What ends a query that claims rows: on PostgreSQL, rows another transaction holds are
/// passed over (`FOR UPDATE SKIP LOCKED`); SQLite's one writer needs nothing.
pub fn claim(pg: bool) -> &'static str {
    if pg { " FOR UPDATE SKIP LOCKED" } else { "" }
}

/// A query of SQLite's numbered parameters (`?1`) with PostgreSQL's (`$1`); a bare `?` is
/// numbered in order. Quoted text is left as it is.
pub fn pg(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 8);
    let mut quoted = false;
    let mut next = 0;
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\'' {
            quoted = !quoted;
        }
        if c == '?' && !quoted {
            out.push('$');
            if chars.peek().is_some_and(char::is_ascii_digit) {
                while let Some(d) = chars.next_if(char::is_ascii_digit) {
                    out.push(d);
                }
            } else {
                next += 1;
                out.push_str(&next.to_string());
            }
            continue;
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_numbered_the_postgresql_way_outside_quotes() {
        assert_eq!(
            pg("SELECT a FROM t WHERE b = ?1 AND c = '?2' AND d IN (?12, ?)"),
            "SELECT a FROM t WHERE b = $1 AND c = '?2' AND d IN ($12, $1)"
        );
    }

    #[test]
    fn both_databases_have_every_version() {
        assert_eq!(LITE_MIGRATIONS.len(), PG_MIGRATIONS.len());
    }
}
