-- NavStore schema 12: what an operator needs to manage the collector's tokens, and the key a
-- device signs its uploads with.
--
-- A token gets an optional label (who or what holds it), an optional expiry (after it the token
-- authenticates nothing, as if revoked) and the time it last authenticated a request (noted at
-- most once a minute), so a token that is never used can be found and revoked.
ALTER TABLE tokens ADD COLUMN label        TEXT;     -- 1 to 256 characters, or NULL
ALTER TABLE tokens ADD COLUMN expires_at   INTEGER;  -- milliseconds since 1970, or NULL: never
ALTER TABLE tokens ADD COLUMN last_used_at INTEGER;  -- milliseconds since 1970, or NULL: never used

-- The device's own key (Ed25519), made on its first recording: the public half is named in
-- every session's start (its context's `deviceKey`), and the uploader signs each request with
-- the private half, so a collector takes those sessions' lines only from this device. One row.
CREATE TABLE device_key (
  id          INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
  private_key BLOB    NOT NULL CHECK (length(private_key) = 32),
  created_at  INTEGER NOT NULL
) STRICT;
