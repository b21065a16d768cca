-- A fleet's store on PostgreSQL, version 4: the console's passes, kept by the store.
--
-- A browser signed in to the console holds a pass: its id (this table's key) and a random
-- secret, of which only the SHA-256 is kept here. A pass signs in with its read token until it
-- ends (a working day after the sign-in), the browser signs out (its row is deleted), or the
-- token is revoked or expires. Nothing here makes a pass: a dump of the database opens no
-- console. Every collector of the database checks every pass.
CREATE TABLE console_passes (
  id          text   NOT NULL PRIMARY KEY CHECK (id ~ '^[0-9a-f]{16}$'),
  token_id    text   NOT NULL REFERENCES tokens (id),
  secret_hash bytea  NOT NULL CHECK (octet_length(secret_hash) = 32),
  ends_at     bigint NOT NULL
);

CREATE INDEX console_passes_by_token ON console_passes (token_id, ends_at);
