-- Events (docs/ARENA.md, "Events"): an administrator's dated round robin among a hill's top
-- programs. At its time its programs are taken as they stand (the versions placed then:
-- later submissions, rollbacks or withdrawals change nothing of it), its matches are cut
-- into pieces the workers claim with a lease once no placement piece waits, and each match
-- is stored once (the key of event_matches). Its matches are apart from the hill's: they
-- never reach the standings, the ratings or the history. Once done, nothing changes it.

CREATE TABLE events (
    id       INTEGER PRIMARY KEY,
    hill     INTEGER NOT NULL REFERENCES hills(id),
    -- When it starts (seconds since 1970, on the database's clock).
    at       INTEGER NOT NULL,
    -- The hill's top N at its start; NULL: every program placed then.
    top      INTEGER,
    -- Seed indices 1..=seeds, each pairing played both ways.
    seeds    INTEGER NOT NULL,
    state    TEXT NOT NULL CHECK (state IN ('scheduled', 'running', 'done')),
    created  INTEGER NOT NULL,
    started  INTEGER,
    finished INTEGER
);
CREATE INDEX events_state ON events (state, at);
CREATE INDEX events_hill ON events (hill, id);

-- Its programs as they stood at its start: a seat each (in the order of their names) and
-- their rank on the hill then.
CREATE TABLE event_programs (
    event   INTEGER NOT NULL REFERENCES events(id),
    seat    INTEGER NOT NULL,
    program INTEGER NOT NULL REFERENCES programs(id),
    rank    INTEGER NOT NULL,
    PRIMARY KEY (event, seat)
);

-- Its matches in pieces, claimed as a placement's are.
CREATE TABLE event_pieces (
    id     INTEGER PRIMARY KEY,
    event  INTEGER NOT NULL REFERENCES events(id),
    -- The games (JSON: [a, b, swapped, seed index] each; a and b are seats).
    games  TEXT NOT NULL,
    state  TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done')),
    -- Who holds it, and until when (milliseconds since 1970, the database's clock).
    worker TEXT,
    lease  INTEGER,
    tries  INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX event_pieces_state ON event_pieces (state, id);
CREATE INDEX event_pieces_event ON event_pieces (event, state);

-- An event's match: stored once (its key: its number in the event's schedule, from 1).
CREATE TABLE event_matches (
    event      INTEGER NOT NULL REFERENCES events(id),
    number     INTEGER NOT NULL,
    green      INTEGER NOT NULL REFERENCES programs(id),
    violet     INTEGER NOT NULL REFERENCES programs(id),
    seed_index INTEGER NOT NULL,
    seed       INTEGER NOT NULL,
    winner     TEXT NOT NULL CHECK (winner IN ('green', 'violet', 'draw')),
    rounds     INTEGER NOT NULL,
    reason     TEXT NOT NULL,
    PRIMARY KEY (event, number)
);
