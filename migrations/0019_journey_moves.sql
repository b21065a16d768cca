-- NavStore schema 19: a session whose journey moves (the session it restores arrived after it)
-- is received again, so that an incremental export hands out its rows again with the new
-- journey. The write that moves it gives the session's row its own number (`received`, which
-- selects the sessions a pull replays) and keeps it in `journey_received`, which the screen
-- views take as their own when it is the higher: a view handed out before the move comes
-- again. Sessions moved before this schema keep the journey they have, and no number.
ALTER TABLE sessions ADD COLUMN journey_received INTEGER NOT NULL DEFAULT 0;

-- The receipt counter gets a new name. A build of an older schema that is still running when
-- its store is migrated (a long-lived collector) reads and writes the counter by its old name:
-- its writes now fail rather than take numbers already handed out (schema 17 took them from
-- the counter alone) or move journeys without a number (schema 18).
ALTER TABLE received_order RENAME TO receipt_counter;
