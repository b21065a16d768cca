-- The collector's own tables, version 1: the apps it serves and the tokens that reach them.
--
-- They live in the collector's main store file (the default app's), never in a device's: only
-- NavFleet, which only the `navstore` executable builds, makes them. Each other app keeps its
-- sessions in a store file of its own beside the main one, and is listed here.
--
-- An app is a namespace of sessions: the same session id in two apps is two sessions. A token
-- belongs to one app and one role; only the SHA-256 of its secret is kept. It may have a label
-- (who or what holds it), an expiry (after it the token authenticates nothing, as if revoked)
-- and the time it last authenticated a request (noted at most once a minute).
CREATE TABLE collector_apps (
  name       TEXT    NOT NULL PRIMARY KEY,     -- 1 to 64 of a-z 0-9 . _ -, starting with a letter or digit
  created_at INTEGER NOT NULL                  -- milliseconds since 1970
) STRICT, WITHOUT ROWID;

CREATE TABLE collector_tokens (
  id           TEXT    NOT NULL PRIMARY KEY,   -- the public part of the token, 16 hex digits
  app          TEXT    NOT NULL,
  role         TEXT    NOT NULL CHECK (role IN ('ingest', 'read')),
  secret_hash  BLOB    NOT NULL CHECK (length(secret_hash) = 32),
  created_at   INTEGER NOT NULL,
  revoked_at   INTEGER,                        -- NULL while the token is valid
  label        TEXT,                           -- 1 to 256 characters, or NULL
  expires_at   INTEGER,                        -- NULL: never
  last_used_at INTEGER                         -- NULL: never used
) STRICT, WITHOUT ROWID;
