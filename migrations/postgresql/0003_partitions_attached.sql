-- A fleet's store on PostgreSQL, version 3: a month's partitions are made beside uploads, never
-- in their way.
--
-- Version 1 made them with `CREATE TABLE ... PARTITION OF`, which holds `events`, then
-- `snapshots`, exclusively. An upload that had read `snapshots` (a session's state) and then
-- read `events` waited on the first while the partition's maker waited on the second: a
-- deadlock, which the database breaks by failing one of them. Each partition is now made as a
-- table of its own and attached: attaching holds the parent only in SHARE UPDATE EXCLUSIVE mode,
-- which readers and writers of its rows do not wait on. The partitions are the same tables
-- (columns, collations, checks, key and the append-only trigger, which the parent gives them).

CREATE OR REPLACE FUNCTION navstore_month_partition(m integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  next integer := CASE WHEN m % 100 = 12 THEN m + 89 ELSE m + 1 END;
BEGIN
  PERFORM pg_advisory_xact_lock(7356152906231844411);
  IF EXISTS (SELECT 1 FROM partitions WHERE month = m) THEN
    RETURN;
  END IF;
  EXECUTE format('CREATE TABLE events_%s (LIKE events INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', m);
  EXECUTE format('ALTER TABLE events ATTACH PARTITION events_%s FOR VALUES FROM (%s) TO (%s)', m, m, next);
  EXECUTE format('CREATE TABLE snapshots_%s (LIKE snapshots INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', m);
  EXECUTE format('ALTER TABLE snapshots ATTACH PARTITION snapshots_%s FOR VALUES FROM (%s) TO (%s)', m, m, next);
  INSERT INTO partitions (month, created_at) VALUES (m, (extract(epoch FROM clock_timestamp()) * 1000)::bigint);
END;
$$;
