-- NavStore schema 2: a session that began by restoring another names it (the `start` event's
-- `restoredFrom`), and the most recent session is found without reading every session.

-- The link as the session's start event states it; NULL when the session did not restore one.
-- The event itself, hash-chained, is the record: `navstore verify` checks these columns against it.
ALTER TABLE sessions ADD COLUMN restored_from_session TEXT;
ALTER TABLE sessions ADD COLUMN restored_from_seq INTEGER
  CHECK (restored_from_seq IS NULL OR restored_from_seq >= 1)
  CHECK ((restored_from_seq IS NULL) = (restored_from_session IS NULL));  -- both or neither

-- `SessionStore.latestSession()`: the session whose last event is the newest, in one index step.
CREATE INDEX sessions_by_last_at ON sessions (last_at);
