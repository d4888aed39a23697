-- Version 5: a room's owner generation (docs/SCALE.md, "Servers"). Each server that takes a
-- room's game (PostgreSQL: its advisory lock) adds one; every write of the room's state,
-- seats, decisions, published views and taken messages first checks, in its transaction,
-- that the generation is still the writer's, so the write of an owner that lost the room
-- changes nothing. One SQLite server never changes it: its checks always pass.

ALTER TABLE rooms ADD COLUMN generation INTEGER NOT NULL DEFAULT 0;
