-- NavStore schema 1: sessions, their append-only event log, and periodic snapshots.
-- Times are milliseconds since the Unix epoch (UTC); JSON columns hold RFC 8785 canonical text.

CREATE TABLE sessions (
  id          TEXT    NOT NULL PRIMARY KEY,          -- 1 to 128 characters, no control characters
  event_count INTEGER NOT NULL DEFAULT 0 CHECK (event_count >= 0),
  first_at    INTEGER,                               -- time of seq 1
  last_at     INTEGER,                               -- time of the last event
  head_hash   BLOB    CHECK (head_hash IS NULL OR length(head_hash) = 32),  -- chain value after the last event
  depth       INTEGER NOT NULL DEFAULT 0             -- routes on the visible path of the current state
) STRICT, WITHOUT ROWID;

CREATE TABLE events (
  session_id TEXT    NOT NULL REFERENCES sessions (id),
  seq        INTEGER NOT NULL CHECK (seq >= 1),
  at         INTEGER NOT NULL,
  origin     TEXT    NOT NULL CHECK (origin IN ('app', 'user')),
  op         TEXT    NOT NULL,                       -- the operation
  cause      TEXT,                                   -- the app action, or NULL
  hash       BLOB    NOT NULL CHECK (length(hash) = 32),
  PRIMARY KEY (session_id, seq)
) STRICT, WITHOUT ROWID;

CREATE TABLE snapshots (
  session_id TEXT    NOT NULL,
  seq        INTEGER NOT NULL,
  state      TEXT    NOT NULL,                       -- the Coordinator after event `seq`
  PRIMARY KEY (session_id, seq),
  FOREIGN KEY (session_id, seq) REFERENCES events (session_id, seq)
) STRICT, WITHOUT ROWID;

-- The log is append-only: history is changed only by someone who first drops these triggers,
-- and `navstore verify` finds that through the hash chain.
CREATE TRIGGER events_are_append_only_update BEFORE UPDATE ON events
BEGIN
  SELECT RAISE(ABORT, 'events are append-only');
END;

CREATE TRIGGER events_are_append_only_delete BEFORE DELETE ON events
BEGIN
  SELECT RAISE(ABORT, 'events are append-only');
END;
