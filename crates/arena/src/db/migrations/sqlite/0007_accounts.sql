-- Version 7: accounts their owners control (docs/ARENA.md, "Your account"). An API token's
-- last use (seconds since 1970; written at most once a minute a token), an account's
-- deletion (its name is then `(deleted ID)`, its password '!', its programs' texts erased),
-- and the names of deleted accounts, folded to lower case, kept from new accounts until
-- their cooling-off period ends.
ALTER TABLE tokens ADD COLUMN used INTEGER;
ALTER TABLE accounts ADD COLUMN deleted INTEGER;
CREATE INDEX tokens_account ON tokens (account, kind);
CREATE TABLE retired_names (
    name  TEXT PRIMARY KEY,
    free_at INTEGER NOT NULL
);
