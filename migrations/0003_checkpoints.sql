-- NavStore schema 3: the store's identity, and the checkpoints it signed (`navstore checkpoint`).

-- Made once, at random, when the store is created (or migrated to this version): a checkpoint
-- names it in its origin line, so a checkpoint of one store is never taken for another's.
CREATE TABLE store_identity (
  id TEXT NOT NULL PRIMARY KEY CHECK (length(id) = 32)
) STRICT, WITHOUT ROWID;
INSERT INTO store_identity (id) VALUES (lower(hex(randomblob(16))));

-- Each checkpoint the store wrote: the signed note as written, and its root, to find it by.
CREATE TABLE checkpoints (
  id        INTEGER NOT NULL PRIMARY KEY,
  made_at   INTEGER NOT NULL,                         -- the checkpoint's time
  root_hash BLOB    NOT NULL CHECK (length(root_hash) = 32),
  note      TEXT    NOT NULL                          -- the signed note, as written
) STRICT;
CREATE INDEX checkpoints_by_root ON checkpoints (root_hash);

-- The tree's leaves: every session at the checkpoint, in id order (the leaf's position). The
-- signed root commits to them, so a record altered here no longer gives the root. They are
-- written as the sessions are read, before their checkpoint's row (which needs the root): the
-- reference is checked when the transaction commits.
CREATE TABLE checkpoint_sessions (
  checkpoint_id INTEGER NOT NULL REFERENCES checkpoints (id) DEFERRABLE INITIALLY DEFERRED,
  position      INTEGER NOT NULL CHECK (position >= 0),
  session_id    TEXT    NOT NULL,
  seq           INTEGER NOT NULL CHECK (seq >= 1),
  hash          BLOB    NOT NULL CHECK (length(hash) = 32),
  PRIMARY KEY (checkpoint_id, position)
) STRICT, WITHOUT ROWID;

CREATE TRIGGER checkpoints_are_append_only_update BEFORE UPDATE ON checkpoints
BEGIN
  SELECT RAISE(ABORT, 'checkpoints are append-only');
END;
CREATE TRIGGER checkpoints_are_append_only_delete BEFORE DELETE ON checkpoints
BEGIN
  SELECT RAISE(ABORT, 'checkpoints are append-only');
END;
CREATE TRIGGER checkpoint_sessions_are_append_only_update BEFORE UPDATE ON checkpoint_sessions
BEGIN
  SELECT RAISE(ABORT, 'checkpoints are append-only');
END;
CREATE TRIGGER checkpoint_sessions_are_append_only_delete BEFORE DELETE ON checkpoint_sessions
BEGIN
  SELECT RAISE(ABORT, 'checkpoints are append-only');
END;
