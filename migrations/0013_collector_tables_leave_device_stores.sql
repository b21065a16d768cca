-- NavStore schema 13: a device's store holds no collector tables.
--
-- Schema 9 put the collector's apps and tokens in every store file, a phone's included. They
-- now live only in a collector's own file, in tables the collector's migrations make
-- (migrations/collector/), and this migration takes the old ones out of every store.
--
-- A device never has rows in them. A collector's file does, and the collector moves them to
-- its own tables before this migration runs on it (`navstore` does that whenever it opens a
-- store). Should anything else migrate such a file first, the check below fails the migration,
-- so the file stays at schema 12 with its tokens, and nothing is lost.
CREATE TABLE collector_rows_left (
  count INTEGER NOT NULL,
  CONSTRAINT collector_tokens_and_apps_must_move_first CHECK (count = 0)
) STRICT;
INSERT INTO collector_rows_left SELECT (SELECT count(*) FROM apps) + (SELECT count(*) FROM tokens);
DROP TABLE collector_rows_left;
DROP TABLE apps;
DROP TABLE tokens;
