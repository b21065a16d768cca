-- NavStore schema 8: the app's lifecycle in each session's row. `phase` is where the session is
-- after its last event (`background`, `foreground` and `end` events move it); `foreground_ms` is
-- the part of `duration_ms` the app spent in the foreground, the time screen views add up to.
-- Both are derived from the events, kept so that an append checks the next lifecycle event and
-- listings read them without reading events; `verify` holds them to the events. Sessions stored
-- before have no lifecycle events: they were in the foreground all along.
ALTER TABLE sessions ADD COLUMN phase TEXT NOT NULL DEFAULT 'foreground'
  CHECK (phase IN ('foreground', 'background', 'ended'));
ALTER TABLE sessions ADD COLUMN foreground_ms INTEGER NOT NULL DEFAULT 0 CHECK (foreground_ms >= 0);
UPDATE sessions SET foreground_ms = duration_ms;
