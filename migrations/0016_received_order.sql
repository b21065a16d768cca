-- NavStore schema 16: the order in which the store received its events, so that an incremental
-- export (`--after CURSOR`) hands out every row once, whatever time the device gave it. Each
-- write transaction that appends takes the next number of `received_order` (one row, never
-- decreasing, even when the session that held the highest number is forgotten); its events
-- keep that number, and a session's row the highest of its events'. Writers take turns, so a
-- number is visible only once every smaller one is: the cursor a read hands out is the last
-- number committed. Events stored before have number 1, the first cursor any pull starts below.
ALTER TABLE events ADD COLUMN received INTEGER NOT NULL DEFAULT 1;
ALTER TABLE sessions ADD COLUMN received INTEGER NOT NULL DEFAULT 1;
-- The sessions an incremental export replays: those with an event received after its cursor.
CREATE INDEX sessions_by_received ON sessions (received);

CREATE TABLE received_order (
  last INTEGER NOT NULL CHECK (last >= 1)
) STRICT;
INSERT INTO received_order (last) VALUES (1);
