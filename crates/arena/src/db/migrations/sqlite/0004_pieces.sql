-- Version 4: the arena past one machine (docs/SCALE.md). A placement's matches are cut into
-- pieces that any worker, on any machine, claims with a lease; a worker that dies loses its
-- lease and another plays the piece (its matches are stored once: matches' unique key).
-- Rooms: a room's game runs in one server's process (its owner); connections to the other
-- servers reach it through the inbox and see what it publishes.

CREATE TABLE pieces (
    id      INTEGER PRIMARY KEY,
    job     INTEGER NOT NULL REFERENCES jobs(id),
    -- The programs the games number, by name (JSON: program ids).
    members TEXT NOT NULL,
    -- The games (JSON: [a, b, swapped, seed index] each).
    games   TEXT NOT NULL,
    state   TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done')),
    -- Who holds it, and until when (milliseconds since 1970, the database's clock).
    worker  TEXT,
    lease   INTEGER,
    tries   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX pieces_state ON pieces (state, id);
CREATE INDEX pieces_job ON pieces (job, state);

-- A message from a connection on another server to the room's owner, and its answer.
CREATE TABLE room_inbox (
    id      INTEGER PRIMARY KEY,
    room    INTEGER NOT NULL REFERENCES rooms(id),
    -- JSON: the command (join, leave, act, match file).
    command TEXT NOT NULL,
    -- JSON: the answer, once given.
    reply   TEXT,
    taken   INTEGER NOT NULL DEFAULT 0,
    created INTEGER NOT NULL
);
CREATE INDEX room_inbox_room ON room_inbox (room, taken, id);

-- What a room's owner last published (JSON: the seats, each seat's view, a spectator's).
CREATE TABLE room_published (
    room    INTEGER PRIMARY KEY REFERENCES rooms(id),
    version INTEGER NOT NULL,
    body    TEXT NOT NULL
);

-- A seat's place in its room (SQLite kept it as the row's order, which PostgreSQL has not).
ALTER TABLE room_seats ADD COLUMN place INTEGER NOT NULL DEFAULT 0;
UPDATE room_seats SET place = rowid;
