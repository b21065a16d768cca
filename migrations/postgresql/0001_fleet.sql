-- A fleet's store on PostgreSQL, version 1: every app's sessions, and the tokens that reach them,
-- in one database that any number of collectors share.
--
-- The rows say what a SQLite store's rows say (NavFleet computes every derived value in Swift, by
-- the same rules for both engines); only the layout differs:
-- * every table of sessions is keyed by (app, session) first, so that a session's rows sit
--   together and the tables can be distributed by session as they are (Citus);
-- * events and snapshots are partitioned by `month`, the month (UTC, as YYYYMM) in which the
--   collector first stored the session. A session's rows are all in one partition, and `navstore
--   prune` drops a month's partition whole once every session in it is forgotten;
-- * ids are compared byte for byte (COLLATE "C"), so listings sort as SQLite's do;
-- * times are milliseconds since 1970 (bigint), as the device gave them; hashes are 32 bytes;
--   an operation, a cause and a context are their RFC 8785 text, byte for byte what was hashed.

CREATE TABLE apps (
  name       text   NOT NULL PRIMARY KEY CHECK (name ~ '^[a-z0-9][a-z0-9._-]{0,63}$'),
  created_at bigint NOT NULL
);

-- The app every store has, as a store file's own sessions are (`--app` unless given).
INSERT INTO apps (name, created_at) VALUES ('default', 0);

CREATE TABLE tokens (
  id           text   NOT NULL PRIMARY KEY CHECK (id ~ '^[0-9a-f]{16}$'),
  app          text   NOT NULL REFERENCES apps (name),
  role         text   NOT NULL CHECK (role IN ('ingest', 'read')),
  secret_hash  bytea  NOT NULL CHECK (octet_length(secret_hash) = 32),
  created_at   bigint NOT NULL,
  revoked_at   bigint,                   -- NULL while the token is valid
  label        text,                     -- 1 to 256 characters, or NULL
  expires_at   bigint,                   -- NULL: never
  last_used_at bigint                    -- NULL: never used
);

CREATE TABLE sessions (
  app                   text    NOT NULL REFERENCES apps (name),
  id                    text    COLLATE "C" NOT NULL,
  month                 integer NOT NULL CHECK (month BETWEEN 190001 AND 999912),
  event_count           bigint  NOT NULL DEFAULT 0 CHECK (event_count >= 0),
  first_at              bigint,
  last_at               bigint,
  head_hash             bytea   CHECK (head_hash IS NULL OR octet_length(head_hash) = 32),
  depth                 integer NOT NULL DEFAULT 0,
  restored_from_session text    COLLATE "C",
  restored_from_seq     bigint  CHECK (restored_from_seq IS NULL OR restored_from_seq >= 1),
  clock_jumps           bigint  NOT NULL DEFAULT 0 CHECK (clock_jumps >= 0),
  duration_ms           bigint  NOT NULL DEFAULT 0 CHECK (duration_ms >= 0),
  foreground_ms         bigint  NOT NULL DEFAULT 0 CHECK (foreground_ms >= 0),
  context               text,
  phase                 text    NOT NULL DEFAULT 'foreground' CHECK (phase IN ('foreground', 'background', 'ended')),
  PRIMARY KEY (app, id),
  CHECK ((restored_from_seq IS NULL) = (restored_from_session IS NULL))
);
-- The listing's default order (latest activity first) and `prune --before`.
CREATE INDEX sessions_by_last_at ON sessions (app, last_at DESC, id DESC);

CREATE TABLE events (
  app        text    NOT NULL,
  session_id text    COLLATE "C" NOT NULL,
  month      integer NOT NULL,
  seq        bigint  NOT NULL CHECK (seq >= 1),
  at         bigint  NOT NULL,
  origin     text    NOT NULL CHECK (origin IN ('app', 'user')),
  op         text    NOT NULL,
  cause      text,
  hash       bytea   NOT NULL CHECK (octet_length(hash) = 32),
  PRIMARY KEY (app, session_id, month, seq)
) PARTITION BY RANGE (month);

CREATE TABLE snapshots (
  app        text    NOT NULL,
  session_id text    COLLATE "C" NOT NULL,
  month      integer NOT NULL,
  seq        bigint  NOT NULL CHECK (seq >= 1),
  state      text    NOT NULL,          -- the coordinator after event `seq`
  PRIMARY KEY (app, session_id, month, seq)
) PARTITION BY RANGE (month);

-- A forgotten session: what its history ended with, so that an audit recognizes the gap and an
-- upload of the same id is refused.
CREATE TABLE tombstones (
  app          text   NOT NULL,
  session_id   text   COLLATE "C" NOT NULL,
  forgotten_at bigint NOT NULL,
  last_seq     bigint NOT NULL CHECK (last_seq >= 1),
  head_hash    bytea  NOT NULL CHECK (octet_length(head_hash) = 32),
  PRIMARY KEY (app, session_id)
);

-- The months whose partitions exist, as the collectors made them (`navstore_month_partition`).
CREATE TABLE partitions (
  month      integer NOT NULL PRIMARY KEY,
  created_at bigint  NOT NULL
);

-- Events are never edited, and leave only with their session, once it has a tombstone.
CREATE FUNCTION navstore_events_are_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    RAISE EXCEPTION 'events are append-only';
  END IF;
  IF NOT EXISTS (SELECT 1 FROM tombstones WHERE app = OLD.app AND session_id = OLD.session_id) THEN
    RAISE EXCEPTION 'events are append-only';
  END IF;
  RETURN OLD;
END;
$$;
CREATE TRIGGER events_are_append_only BEFORE UPDATE OR DELETE ON events
  FOR EACH ROW EXECUTE FUNCTION navstore_events_are_append_only();

CREATE FUNCTION navstore_tombstones_are_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'tombstones are append-only';
END;
$$;
CREATE TRIGGER tombstones_are_append_only BEFORE UPDATE OR DELETE ON tombstones
  FOR EACH ROW EXECUTE FUNCTION navstore_tombstones_are_append_only();

-- Makes the partitions of events and snapshots for `m` (YYYYMM), once: collectors call it before
-- storing a session in a month that has none yet. Safe to call from several at once.
CREATE FUNCTION navstore_month_partition(m integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  next integer := CASE WHEN m % 100 = 12 THEN m + 89 ELSE m + 1 END;
BEGIN
  PERFORM pg_advisory_xact_lock(7356152906231844411);
  IF EXISTS (SELECT 1 FROM partitions WHERE month = m) THEN
    RETURN;
  END IF;
  EXECUTE format('CREATE TABLE events_%s PARTITION OF events FOR VALUES FROM (%s) TO (%s)', m, m, next);
  EXECUTE format('CREATE TABLE snapshots_%s PARTITION OF snapshots FOR VALUES FROM (%s) TO (%s)', m, m, next);
  INSERT INTO partitions (month, created_at) VALUES (m, (extract(epoch FROM clock_timestamp()) * 1000)::bigint);
END;
$$;
