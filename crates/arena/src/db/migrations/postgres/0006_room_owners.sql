-- Version 5: a room's owner generation (docs/SCALE.md, "Servers"). Each server that takes a
-- room's game (its advisory lock) adds one, on the connection holding the lock; every write
-- of the room's state, seats, decisions, published views and taken messages first checks,
-- in its transaction, that the generation is still the writer's and that the writer's lock
-- session still holds the room's lock, so the write of an owner that lost the room changes
-- nothing.

ALTER TABLE rooms ADD COLUMN generation BIGINT NOT NULL DEFAULT 0;
