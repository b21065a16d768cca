-- A fleet's store on PostgreSQL, version 8: a session whose journey moves (the session it
-- restores arrived after it) is received again, so that an incremental export hands out its
-- rows again with the new journey. The transaction that moves it raises the session's
-- `received` to its own id (which selects the sessions a pull replays) and keeps that id in
-- `journey_received`, which the screen views take as their own number when it is the higher.
-- Sessions moved before this version keep the journey they have, and no number.
ALTER TABLE sessions ADD COLUMN journey_received bigint NOT NULL DEFAULT 0;
