-- NavStore schema 14: checkpoint_sessions' key to its checkpoint is checked at commit in every
-- store.
--
-- `0003_checkpoints.sql` was edited after some stores had applied it: the leaves of a checkpoint
-- are now written before the checkpoint's row (which needs their root), so the key became
-- `DEFERRABLE INITIALLY DEFERRED`. A store that reached schema 3 before the edit kept the
-- immediate key, and `navstore checkpoint` failed on it. This migration rebuilds the table in
-- its current form in every store, keeping every row (and so every checkpoint's audit), and puts
-- back its append-only triggers. On a store that already had the deferred key it changes
-- nothing but the table's place in the file.
DROP TRIGGER checkpoint_sessions_are_append_only_update;
DROP TRIGGER checkpoint_sessions_are_append_only_delete;

CREATE TABLE checkpoint_sessions_rebuilt (
  checkpoint_id INTEGER NOT NULL REFERENCES checkpoints (id) DEFERRABLE INITIALLY DEFERRED,
  position      INTEGER NOT NULL CHECK (position >= 0),
  session_id    TEXT    NOT NULL,
  seq           INTEGER NOT NULL CHECK (seq >= 1),
  hash          BLOB    NOT NULL CHECK (length(hash) = 32),
  PRIMARY KEY (checkpoint_id, position)
) STRICT, WITHOUT ROWID;
INSERT INTO checkpoint_sessions_rebuilt (checkpoint_id, position, session_id, seq, hash)
  SELECT checkpoint_id, position, session_id, seq, hash FROM checkpoint_sessions;
DROP TABLE checkpoint_sessions;
ALTER TABLE checkpoint_sessions_rebuilt RENAME TO checkpoint_sessions;

CREATE TRIGGER checkpoint_sessions_are_append_only_update BEFORE UPDATE ON checkpoint_sessions
BEGIN
  SELECT RAISE(ABORT, 'checkpoints are append-only');
END;
CREATE TRIGGER checkpoint_sessions_are_append_only_delete BEFORE DELETE ON checkpoint_sessions
BEGIN
  SELECT RAISE(ABORT, 'checkpoints are append-only');
END;
