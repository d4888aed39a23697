-- The arena's schema, version 1 (docs/ARENA.md). Applied once, in a transaction, when
-- PRAGMA user_version is below 1. Every later change is a new file, never an edit of this one.

CREATE TABLE accounts (
    id       INTEGER PRIMARY KEY,
    name     TEXT NOT NULL UNIQUE,
    -- argon2id, PHC string; '!' for an account no password opens (the demo's).
    password TEXT NOT NULL,
    admin    INTEGER NOT NULL DEFAULT 0,
    created  INTEGER NOT NULL
);

-- API tokens and browser sessions: only a SHA-256 of the secret is kept.
CREATE TABLE tokens (
    id      INTEGER PRIMARY KEY,
    account INTEGER NOT NULL REFERENCES accounts(id),
    hash    BLOB NOT NULL UNIQUE,
    kind    TEXT NOT NULL CHECK (kind IN ('api', 'session')),
    -- A session's CSRF token (sent in its forms); NULL for API tokens.
    csrf    TEXT,
    created INTEGER NOT NULL,
    expires INTEGER
);

CREATE TABLE hills (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    size        INTEGER NOT NULL,
    seed_first  INTEGER NOT NULL,
    seed_last   INTEGER NOT NULL,
    board       TEXT NOT NULL,
    board_text  TEXT NOT NULL,
    scenario    INTEGER NOT NULL,
    robots      INTEGER NOT NULL,
    rounds      INTEGER NOT NULL,
    keywords    TEXT NOT NULL,
    -- Bumped at every placement: what the standings were computed from.
    epoch       INTEGER NOT NULL DEFAULT 0,
    created     INTEGER NOT NULL
);

CREATE TABLE programs (
    id          INTEGER PRIMARY KEY,
    hill        INTEGER NOT NULL REFERENCES hills(id),
    account     INTEGER NOT NULL REFERENCES accounts(id),
    name        TEXT NOT NULL,
    source      TEXT NOT NULL,
    published   INTEGER NOT NULL DEFAULT 0,
    status      TEXT NOT NULL CHECK (status IN ('queued', 'playing', 'placed', 'off', 'replaced', 'withdrawn')),
    submitted   INTEGER NOT NULL,
    games_done  INTEGER NOT NULL DEFAULT 0,
    games_total INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX programs_live_name ON programs (hill, name)
    WHERE status IN ('queued', 'playing', 'placed');
CREATE INDEX programs_account ON programs (account, submitted);

-- The placement queue: a program waiting for, or in, its placement.
CREATE TABLE jobs (
    id      INTEGER PRIMARY KEY,
    program INTEGER NOT NULL UNIQUE REFERENCES programs(id),
    state   TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done')),
    created INTEGER NOT NULL
);
CREATE INDEX jobs_state ON jobs (state, id);

-- A match played between two programs of a hill: stored exactly once.
CREATE TABLE matches (
    id         INTEGER PRIMARY KEY,
    hill       INTEGER NOT NULL REFERENCES hills(id),
    green      INTEGER NOT NULL REFERENCES programs(id),
    violet     INTEGER NOT NULL REFERENCES programs(id),
    seed_index INTEGER NOT NULL,
    seed       INTEGER NOT NULL,
    winner     TEXT NOT NULL CHECK (winner IN ('green', 'violet', 'draw')),
    rounds     INTEGER NOT NULL,
    reason     TEXT NOT NULL,
    UNIQUE (green, violet, seed_index)
);
CREATE INDEX matches_violet ON matches (violet);

-- The standings after each placement: a program's rank at the hill's epoch.
CREATE TABLE history (
    hill    INTEGER NOT NULL REFERENCES hills(id),
    epoch   INTEGER NOT NULL,
    program INTEGER NOT NULL REFERENCES programs(id),
    rank    INTEGER NOT NULL,
    at      INTEGER NOT NULL,
    PRIMARY KEY (program, epoch)
);
CREATE INDEX history_hill ON history (hill, epoch);
