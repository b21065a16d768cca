-- NavStore schema 17: each session's journey, the first session of the chain of restores it
-- continues (`restored_from`, followed back as far as the store knows it), so that a funnel
-- follows the user across a relaunch. A session that restores none is its own journey's first.
-- A new session takes its journey from the session it restores, or that session's id when the
-- store does not hold it; a session that arrives before the one it restores is moved to that
-- one's journey when it arrives. Sessions stored before are walked once here, from the first of
-- each chain down; one a hand edit left in a loop of restores is its own journey's first.
ALTER TABLE sessions ADD COLUMN journey TEXT;

CREATE TEMP TABLE journeys (id TEXT NOT NULL PRIMARY KEY, first TEXT NOT NULL) WITHOUT ROWID;
INSERT INTO temp.journeys (id, first)
  WITH RECURSIVE chain (id, first) AS (
    SELECT id, coalesce(restored_from_session, id) FROM sessions
      WHERE restored_from_session IS NULL
        OR restored_from_session NOT IN (SELECT id FROM sessions)
    UNION ALL
    SELECT sessions.id, chain.first FROM sessions JOIN chain ON sessions.restored_from_session = chain.id
  )
  SELECT id, first FROM chain;
UPDATE sessions SET journey = coalesce((SELECT first FROM temp.journeys WHERE journeys.id = sessions.id), id);
DROP TABLE temp.journeys;

-- The sessions a newly arrived session's journey moves.
CREATE INDEX sessions_by_journey ON sessions (journey);
