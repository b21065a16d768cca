-- NavStore schema 4: forgetting sessions (`navstore forget`, `navstore prune`), for erasure
-- requests and retention limits, without later audits taking the erasure for tampering.

-- What is left of a forgotten session: its id, when it was forgotten, and its last seq and chain
-- value then, nothing of its content. An audit against an older checkpoint reports the session
-- as forgotten (with this time), not as vanished.
CREATE TABLE tombstones (
  session_id   TEXT    NOT NULL PRIMARY KEY,
  forgotten_at INTEGER NOT NULL,
  last_seq     INTEGER NOT NULL CHECK (last_seq >= 1),
  head_hash    BLOB    NOT NULL CHECK (length(head_hash) = 32)
) STRICT, WITHOUT ROWID;

CREATE TRIGGER tombstones_are_append_only_update BEFORE UPDATE ON tombstones
BEGIN
  SELECT RAISE(ABORT, 'tombstones are append-only');
END;
CREATE TRIGGER tombstones_are_append_only_delete BEFORE DELETE ON tombstones
BEGIN
  SELECT RAISE(ABORT, 'tombstones are append-only');
END;

-- Events stay append-only, except those of a session whose tombstone was written first: the
-- store's own way to forget, in one transaction. A deletion without a tombstone is refused as
-- before; one with a tombstone is, by construction, recorded.
DROP TRIGGER events_are_append_only_delete;
CREATE TRIGGER events_are_append_only_delete BEFORE DELETE ON events
WHEN NOT EXISTS (SELECT 1 FROM tombstones WHERE session_id = OLD.session_id)
BEGIN
  SELECT RAISE(ABORT, 'events are append-only');
END;
