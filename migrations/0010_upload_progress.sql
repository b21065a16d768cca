-- NavStore schema 10: how far a collector has acknowledged each session, for the uploader. The
-- local store is the upload queue: a session's events after its acknowledged seq are still to
-- send. A session with no row here has had nothing acknowledged (sessions recorded before the
-- uploader existed are sent too). When the collector rejects a line, the session is held at
-- that seq with the contract's reason, so the uploader goes on with the others and the app can
-- say why; nothing of it is dropped.
CREATE TABLE upload_progress (
  session_id       TEXT    NOT NULL PRIMARY KEY,
  acknowledged_seq INTEGER NOT NULL CHECK (acknowledged_seq >= 0),
  held_seq         INTEGER CHECK (held_seq IS NULL OR held_seq > acknowledged_seq),
  held_reason      TEXT,                       -- the contract's reason: conflict, illegal, ...
  held_message     TEXT,
  updated_at       INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
