-- NavStore schema 6: what each launch restored, and sessions the user ended on purpose, so that
-- a launch restores only what the user wants back. Bookkeeping of the app's launches, not
-- navigation: none of it is in the hash chain, and forgetting a session deletes its rows here.

-- One row per launch that decided what to show: a restore (whole or shallow) or a fresh start.
-- A restore is confirmed once the app showed it and stayed up; restores left unconfirmed, one
-- after another, mean launches that crashed while restoring.
CREATE TABLE launches (
  id           INTEGER PRIMARY KEY,
  decided_at   INTEGER NOT NULL,                     -- when the launch decided
  kind         TEXT    NOT NULL CHECK (kind IN ('whole', 'shallow', 'fresh')),
  session_id   TEXT    REFERENCES sessions (id) ON DELETE SET NULL,  -- the session restored
  seq          INTEGER CHECK (seq IS NULL OR seq >= 1),              -- at this seq
  confirmed_at INTEGER,                              -- NULL until the restore is confirmed
  CHECK ((kind = 'fresh') = (seq IS NULL)),
  CHECK (kind <> 'fresh' OR confirmed_at IS NOT NULL)
) STRICT;

-- Sessions the user ended on purpose (signed out, reset the app): never restored.
CREATE TABLE session_endings (
  session_id TEXT    NOT NULL PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
  ended_at   INTEGER NOT NULL,
  reason     TEXT    NOT NULL
) STRICT, WITHOUT ROWID;
