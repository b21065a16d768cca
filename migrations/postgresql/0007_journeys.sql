-- A fleet's store on PostgreSQL, version 7: each session's journey, the first session of the
-- chain of restores it continues (`restored_from`, followed back as far as the store knows it),
-- so that a funnel follows the user across a relaunch; a session that restores none is its own
-- journey's first. A new session takes its journey from the session it restores, or that
-- session's id when the store does not hold it; a session that arrived before the one it
-- restores is moved to that one's journey when it arrives. Sessions stored before are walked
-- once here, from the first of each chain down; one a hand edit left in a loop of restores is
-- its own journey's first.
ALTER TABLE sessions ADD COLUMN journey text COLLATE "C";

WITH RECURSIVE chain (app, id, first) AS (
  SELECT s.app, s.id, coalesce(s.restored_from_session, s.id) FROM sessions s
    WHERE s.restored_from_session IS NULL
      OR NOT EXISTS (SELECT 1 FROM sessions r WHERE r.app = s.app AND r.id = s.restored_from_session)
  UNION ALL
  SELECT s.app, s.id, chain.first FROM sessions s
    JOIN chain ON s.app = chain.app AND s.restored_from_session = chain.id
)
UPDATE sessions SET journey = chain.first FROM chain WHERE sessions.app = chain.app AND sessions.id = chain.id;
UPDATE sessions SET journey = id WHERE journey IS NULL;

-- The sessions a newly arrived session's journey moves.
CREATE INDEX sessions_by_journey ON sessions (app, journey);
