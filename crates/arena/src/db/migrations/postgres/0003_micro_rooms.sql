-- Version 3: rooms also play Micro Robots (docs/ROOMS.md). PostgreSQL changes the CHECK in
-- place (SQLite makes the table again: sqlite/0003_micro_rooms.sql).

ALTER TABLE rooms DROP CONSTRAINT rooms_game_check;
ALTER TABLE rooms ADD CONSTRAINT rooms_game_check CHECK (game IN ('battle', 'ricochet', 'micro'));
