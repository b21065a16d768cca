-- A fleet's store on PostgreSQL, version 6: the order in which the collectors received events,
-- so that an incremental export (`after=CURSOR`) hands out every row once, whatever time the
-- device gave it. An upload's events keep the id of the transaction that stored them
-- (`pg_current_xact_id()`, 64 bits, never reused, shared by every collector on the database),
-- and a session's row the highest of its events'. Transactions commit in another order than
-- their ids, so an export hands out only the cursor below which no transaction is still running
-- (its snapshot's `xmin`, less one): nothing can still arrive under it. Events stored before
-- have number 1, below every id.
ALTER TABLE events ADD COLUMN received bigint NOT NULL DEFAULT 1;
ALTER TABLE sessions ADD COLUMN received bigint NOT NULL DEFAULT 1;
-- The sessions an incremental export replays: those with an event received after its cursor.
CREATE INDEX sessions_by_received ON sessions (app, received);
