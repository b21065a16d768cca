-- A fleet's store on PostgreSQL, version 5: what each session's launch did, from its start
-- event's `launch`, kept in the row so that listings filter on it and the sessions export reads
-- it without reading events: the outcome (`restored`, `restoredRoots`, `fresh`, `declined`),
-- why, and how many routes the restore left out. `verify` holds them to the start event.
-- Starts already stored are read once here, each found from its session's row by key.
-- PostgreSQL's JSON functions refuse a document holding `\u0000` anywhere (a screen's payload
-- may), so each start is read with that escape made U+FFFD first: none of the members read here
-- holds it (the wire format refuses control characters in a reason; one that spelled out the
-- six characters `\u0000` would read `\ufffd`, which `verify` would name).
ALTER TABLE sessions
  ADD COLUMN launch         text,
  ADD COLUMN launch_reason  text,
  ADD COLUMN dropped_routes integer NOT NULL DEFAULT 0 CHECK (dropped_routes >= 0);

UPDATE sessions SET
    launch = started.launch ->> 'outcome',
    launch_reason = started.launch ->> 'reason',
    dropped_routes = (
      SELECT least(coalesce(sum((dropped ->> 'routes')::bigint), 0), 1000000000)::integer
        FROM json_array_elements(CASE WHEN json_typeof(started.launch -> 'dropped') = 'array'
          THEN started.launch -> 'dropped' ELSE '[]'::json END) AS dropped)
  FROM (
    SELECT s.app, s.id, s.month, replace(e.op, '\u0000', '\ufffd')::json -> 'launch' AS launch
      FROM sessions AS s
      JOIN events AS e ON e.app = s.app AND e.session_id = s.id AND e.month = s.month AND e.seq = 1
      WHERE e.op LIKE '%"launch":{%'
  ) AS started
  WHERE sessions.app = started.app AND sessions.id = started.id AND sessions.month = started.month
    AND json_typeof(started.launch) = 'object';
