-- The collector's own tables, version 2: the console's passes, kept by the store.
--
-- A browser signed in to the console holds a pass: its id (this table's key) and a random
-- secret, of which only the SHA-256 is kept here. A pass signs in with its read token until it
-- ends (a working day after the sign-in), the browser signs out (its row is deleted), or the
-- token is revoked or expires. Nothing here makes a pass: a backup of the store opens no console.
CREATE TABLE collector_console_passes (
  id          TEXT    NOT NULL PRIMARY KEY,   -- 16 hex digits
  token_id    TEXT    NOT NULL,
  secret_hash BLOB    NOT NULL CHECK (length(secret_hash) = 32),
  ends_at     INTEGER NOT NULL                -- milliseconds since 1970
) STRICT, WITHOUT ROWID;

CREATE INDEX collector_console_passes_by_token ON collector_console_passes (token_id, ends_at);
