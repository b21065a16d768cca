-- A fleet's store on PostgreSQL, version 5: what each session's launch did, from its start
-- event's `launch`, kept in the row so that listings filter on it and the sessions export reads
-- it without reading events: the outcome (`restored`, `restoredRoots`, `fresh`, `declined`),
-- why, and how many routes the restore left out. `verify` holds them to the start event.
-- Starts already stored are read once here (every stored `op` is canonical JSON: the
-- collector wrote it).
ALTER TABLE sessions
  ADD COLUMN launch         text,
  ADD COLUMN launch_reason  text,
  ADD COLUMN dropped_routes integer NOT NULL DEFAULT 0 CHECK (dropped_routes >= 0);

UPDATE sessions SET
    launch = started.launch ->> 'outcome',
    launch_reason = started.launch ->> 'reason',
    dropped_routes = (
      SELECT least(coalesce(sum((dropped ->> 'routes')::bigint), 0), 1000000000)::integer
        FROM jsonb_array_elements(CASE WHEN jsonb_typeof(started.launch -> 'dropped') = 'array'
          THEN started.launch -> 'dropped' ELSE '[]'::jsonb END) AS dropped)
  FROM (
    SELECT app, session_id, month, op::jsonb -> 'launch' AS launch
      FROM events WHERE seq = 1 AND op LIKE '%"launch":{%'
  ) AS started
  WHERE sessions.app = started.app AND sessions.id = started.session_id AND sessions.month = started.month
    AND jsonb_typeof(started.launch) = 'object';
