-- Version 5: account names are unique without regard to case, so that `Alice` cannot sign
-- up beside `alice` (names are ASCII, `A-Za-z0-9_-`: lower() folds them all). Accounts made
-- before this version whose names differ only in case are kept and sign in by their exact
-- names: the first of them (the lowest id) holds the folded name, the later ones are marked
-- `alike` and left out of the unique index, which every new account enters (alike 0). A
-- name in another case signs in to the account holding its folded name.
ALTER TABLE accounts ADD COLUMN alike INTEGER NOT NULL DEFAULT 0;
UPDATE accounts SET alike = 1
    WHERE EXISTS (SELECT 1 FROM accounts o
                  WHERE lower(o.name) = lower(accounts.name) AND o.id < accounts.id);
CREATE UNIQUE INDEX accounts_folded ON accounts (lower(name)) WHERE alike = 0;
