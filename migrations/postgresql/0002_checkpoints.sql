-- A fleet's store on PostgreSQL, version 2: signed checkpoints of an app's sessions, as a store
-- file keeps them (`navstore checkpoint`, `navstore verify --checkpoint`).
--
-- A checkpoint names the database (its identity, made once here) and the app, so that one app's
-- checkpoint is never taken for another's or another database's. Each is kept with its leaves
-- (one per session, in id order) so that an audit finds every session it committed to; the
-- leaves are checked against the signed root before they are believed.

CREATE TABLE fleet_identity (
  id text NOT NULL PRIMARY KEY CHECK (id ~ '^[0-9a-f]{32}$')
);
INSERT INTO fleet_identity (id) VALUES (replace(gen_random_uuid()::text, '-', ''));

CREATE TABLE checkpoints (
  app       text   NOT NULL REFERENCES apps (name),
  id        bigint NOT NULL CHECK (id >= 1),
  made_at   bigint NOT NULL,                               -- the checkpoint's time
  root_hash bytea  NOT NULL CHECK (octet_length(root_hash) = 32),
  note      text   NOT NULL,                               -- the signed note, as written
  PRIMARY KEY (app, id)
);
CREATE INDEX checkpoints_by_root ON checkpoints (app, root_hash, id);

CREATE TABLE checkpoint_sessions (
  app           text   NOT NULL,
  checkpoint_id bigint NOT NULL,
  position      bigint NOT NULL CHECK (position >= 0),     -- the leaf's index in the tree
  session_id    text   COLLATE "C" NOT NULL,
  seq           bigint NOT NULL CHECK (seq >= 1),
  hash          bytea  NOT NULL CHECK (octet_length(hash) = 32),
  PRIMARY KEY (app, checkpoint_id, position)
);

-- A checkpoint is a record: nothing edits or removes one.
CREATE FUNCTION navstore_checkpoints_are_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'checkpoints are append-only';
END;
$$;
CREATE TRIGGER checkpoints_are_append_only BEFORE UPDATE OR DELETE ON checkpoints
  FOR EACH ROW EXECUTE FUNCTION navstore_checkpoints_are_append_only();
CREATE TRIGGER checkpoint_sessions_are_append_only BEFORE UPDATE OR DELETE ON checkpoint_sessions
  FOR EACH ROW EXECUTE FUNCTION navstore_checkpoints_are_append_only();
