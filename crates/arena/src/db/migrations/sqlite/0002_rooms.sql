-- Rooms (docs/ROOMS.md), version 2: a game played live by players on their own devices.
-- A room's game is its settings, its seats' programs and the log of its players' decisions:
-- played again from them, it stands where it stood (the engine is seeded and pure).

CREATE TABLE rooms (
    id       INTEGER PRIMARY KEY,
    -- The room's link: 32 hex digits from the system's random source.
    code     TEXT NOT NULL UNIQUE,
    game     TEXT NOT NULL CHECK (game IN ('battle', 'ricochet')),
    host     INTEGER NOT NULL REFERENCES accounts(id),
    -- JSON: board, scenario, robots, rounds, pace, timeout, spectators.
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

CREATE TABLE room_seats (
    room    INTEGER NOT NULL REFERENCES rooms(id),
    colour  TEXT NOT NULL,
    account INTEGER REFERENCES accounts(id),
    source  TEXT,
    ready   INTEGER NOT NULL DEFAULT 0,
    -- The signal its player set for the end of their next turn (JSON [robot, step]).
    armed   TEXT,
    PRIMARY KEY (room, colour)
);
CREATE INDEX room_seats_account ON room_seats (account);

-- The players' decisions, in order: placements and signals (JSON).
CREATE TABLE room_actions (
    room   INTEGER NOT NULL REFERENCES rooms(id),
    seq    INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (room, seq)
);
