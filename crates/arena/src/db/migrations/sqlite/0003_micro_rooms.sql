-- Version 3: rooms also play Micro Robots (docs/ROOMS.md). SQLite cannot change a CHECK in
-- place: the table is made again with the new one and its rows copied (the migration runs
-- with foreign keys off, then checks them before it commits; db.rs).

CREATE TABLE rooms_v3 (
    id       INTEGER PRIMARY KEY,
    -- The room's link: 32 hex digits from the system's random source.
    code     TEXT NOT NULL UNIQUE,
    game     TEXT NOT NULL CHECK (game IN ('battle', 'ricochet', 'micro')),
    host     INTEGER NOT NULL REFERENCES accounts(id),
    -- JSON: game, board (a Micro face for micro), scenario, robots, rounds, pace, timeout,
    -- spectators, players, variant (micro), hints (ricochet).
    settings TEXT NOT NULL,
    seed     INTEGER NOT NULL,
    state    TEXT NOT NULL CHECK (state IN ('writing', 'playing', 'over')),
    -- Robot turns played (the match is played again up to here after a restart).
    turn     INTEGER NOT NULL DEFAULT 0,
    -- The host's pause and pace, as they stand.
    paused   INTEGER NOT NULL DEFAULT 0,
    pace     REAL,
    created  INTEGER NOT NULL
);
INSERT INTO rooms_v3 (id, code, game, host, settings, seed, state, turn, paused, pace, created)
    SELECT id, code, game, host, settings, seed, state, turn, paused, pace, created FROM rooms;
DROP TABLE rooms;
ALTER TABLE rooms_v3 RENAME TO rooms;
