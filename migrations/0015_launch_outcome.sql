-- NavStore schema 15: what each session's launch did, from its start event's `launch`, kept in
-- the row so that listings filter on it and the sessions export reads it without reading
-- events: the outcome (`restored`, `restoredRoots`, `fresh`, `declined`), why, and how many
-- routes the restore left out. `verify` holds them to the start event. Starts stored before
-- are read once here, each found from its session's row by key (CROSS JOIN keeps that order),
-- so that a store of any age lists its launches; a start a hand edit made unreadable is left
-- for `verify` to name, never a reason for the store not to open.
ALTER TABLE sessions ADD COLUMN launch TEXT;          -- the outcome, or NULL when the start did not say
ALTER TABLE sessions ADD COLUMN launch_reason TEXT;   -- why, or NULL
ALTER TABLE sessions ADD COLUMN dropped_routes INTEGER NOT NULL DEFAULT 0 CHECK (dropped_routes >= 0);

CREATE TEMP TABLE launches (session_id TEXT NOT NULL PRIMARY KEY, op TEXT NOT NULL);
INSERT INTO temp.launches (session_id, op)
  SELECT events.session_id, events.op FROM sessions CROSS JOIN events ON events.session_id = sessions.id AND events.seq = 1
    WHERE CASE WHEN json_valid(events.op) THEN json_type(events.op, '$.launch') = 'object' ELSE 0 END;

-- Every path below is read from the whole start (valid JSON), never from a piece of it that
-- may be bare text.
UPDATE sessions SET
  launch = (
    SELECT CASE WHEN json_type(op, '$.launch.outcome') = 'text' THEN json_extract(op, '$.launch.outcome') END
      FROM temp.launches WHERE session_id = sessions.id),
  launch_reason = (
    SELECT CASE WHEN json_type(op, '$.launch.reason') = 'text' THEN json_extract(op, '$.launch.reason') END
      FROM temp.launches WHERE session_id = sessions.id),
  dropped_routes = (
    SELECT CAST(max(0, min(1000000000, total(
        CASE WHEN json_type(temp.launches.op, dropped.fullkey || '.routes') = 'integer'
          THEN json_extract(temp.launches.op, dropped.fullkey || '.routes') END))) AS INTEGER)
      FROM temp.launches, json_each(temp.launches.op, '$.launch.dropped') AS dropped
      WHERE temp.launches.session_id = sessions.id AND json_type(temp.launches.op, '$.launch.dropped') = 'array')
  WHERE id IN (SELECT session_id FROM temp.launches);

DROP TABLE temp.launches;
