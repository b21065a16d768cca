-- NavStore schema 11: the bytes the uploader sent each day, so that a daily cap the app sets
-- (on every network, or on an expensive one such as cellular) holds across launches. One row
-- per UTC day; the uploader keeps the last 31 days and deletes older rows as it writes.
CREATE TABLE upload_spending (
  day             INTEGER NOT NULL PRIMARY KEY,  -- days since 1970-01-01, UTC
  bytes           INTEGER NOT NULL CHECK (bytes >= 0),
  expensive_bytes INTEGER NOT NULL CHECK (expensive_bytes >= 0 AND expensive_bytes <= bytes)
) STRICT;
