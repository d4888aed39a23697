-- Challenges (docs/ARENA.md, "Challenges"): a program against another of its hill, or a
-- shipped one, over a few seeds both ways, never counted in the standings, the ratings or
-- the history. Their matches are apart from the hill's (a challenge may meet a program its
-- hill already paired with the challenger, on the same seeds).

CREATE TABLE challenges (
    id        INTEGER PRIMARY KEY,
    -- The challenger: who made it (its results and replays are theirs).
    account   INTEGER NOT NULL REFERENCES accounts(id),
    hill      INTEGER NOT NULL REFERENCES hills(id),
    -- The challenger's side: one of its programs, or a text sent with the challenge
    -- (`source`, checked as a submission is; NULL when `program` is given).
    program   INTEGER REFERENCES programs(id),
    name      TEXT NOT NULL,
    source    TEXT,
    -- The opponent: a program of the hill, or a shipped program by its name.
    opponent  INTEGER REFERENCES programs(id),
    shipped   TEXT,
    -- Seed indices 1..=seeds, each played with the challenger green, then violet.
    seeds     INTEGER NOT NULL,
    state     TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done')),
    -- Who plays it, and until when (milliseconds since 1970, the database's clock).
    worker    TEXT,
    lease     INTEGER,
    created   INTEGER NOT NULL
);
CREATE INDEX challenges_state ON challenges (state, id);
CREATE INDEX challenges_account ON challenges (account, created);
CREATE INDEX challenges_opponent ON challenges (opponent);

-- A challenge's match: stored once (its key).
CREATE TABLE challenge_matches (
    challenge  INTEGER NOT NULL REFERENCES challenges(id),
    seed_index INTEGER NOT NULL,
    -- 1 when the challenger played green.
    green      INTEGER NOT NULL,
    seed       INTEGER NOT NULL,
    winner     TEXT NOT NULL CHECK (winner IN ('green', 'violet', 'draw')),
    rounds     INTEGER NOT NULL,
    reason     TEXT NOT NULL,
    PRIMARY KEY (challenge, seed_index, green)
);
