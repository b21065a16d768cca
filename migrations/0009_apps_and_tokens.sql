-- NavStore schema 9: apps and the tokens that reach them, for a collector that serves a fleet.
-- An app is a namespace of sessions: the same session id in two apps is two sessions. The store
-- file holds the app `default` (every session written before this schema is the default app's);
-- each other app keeps its sessions in a store file of its own beside it, listed here. A token
-- belongs to one app and one role; only the SHA-256 of its secret is kept.
CREATE TABLE apps (
  name       TEXT    NOT NULL PRIMARY KEY,     -- 1 to 64 of a-z 0-9 . _ -, starting with a letter or digit
  created_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

CREATE TABLE tokens (
  id          TEXT    NOT NULL PRIMARY KEY,    -- the public part of the token, 16 hex digits
  app         TEXT    NOT NULL,
  role        TEXT    NOT NULL CHECK (role IN ('ingest', 'read')),
  secret_hash BLOB    NOT NULL CHECK (length(secret_hash) = 32),
  created_at  INTEGER NOT NULL,
  revoked_at  INTEGER                          -- NULL while the token is valid
) STRICT, WITHOUT ROWID;
