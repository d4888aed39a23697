-- Migration 0008 (docs/ARENA.md, "Versions"): every submission under a name on a hill is a
-- version of that name, numbered in the order of the programs' ids. Counting a program's
-- version, and listing the versions of a name, read this index instead of the whole hill.
CREATE INDEX programs_versions ON programs (hill, name, account, id);
