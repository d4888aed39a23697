-- Migration 0011 (issue 50): the viewer's document of a stored match, made at its first
-- request and kept (crates/arena/src/replays/): the JSON every stranger is given (each
-- robot's steps and tests left out), gzip, with where its `robots` array lies. One row a
-- match; `played` is the SHA-256 of the viewer's version, the seed and both programs' texts
-- (a row played from other texts is made again). An account's deletion removes its matches'
-- rows.
CREATE TABLE match_replays (
    match_id     BIGINT PRIMARY KEY REFERENCES matches(id),
    played       BYTEA NOT NULL,
    robots_start BIGINT NOT NULL,
    robots_end   BIGINT NOT NULL,
    size         BIGINT NOT NULL,
    gz           BYTEA NOT NULL
);
