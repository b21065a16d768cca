-- NavStore schema 5: times kept as the device claimed them, and where its clock went back.
-- An event may be earlier than the event before it (NTP, the user setting the clock); its time
-- is kept, and these columns say so without reading the session's events.

-- How many of the session's events are earlier than the event before them.
ALTER TABLE sessions ADD COLUMN clock_jumps INTEGER NOT NULL DEFAULT 0 CHECK (clock_jumps >= 0);
-- The time the session lasted, counting only the clock going forward: the sum over its events
-- of the time since the event before, or 0 when that is negative. It equals last_at - first_at
-- when the clock never went back, and the sum of the session's screen views' durations always.
-- Held at 2^53 - 1 at most, which only a hand-made history can reach.
ALTER TABLE sessions ADD COLUMN duration_ms INTEGER NOT NULL DEFAULT 0 CHECK (duration_ms >= 0);

-- Sessions stored before this schema: both from their events.
UPDATE sessions SET
  clock_jumps = (
    SELECT count(*) FROM events AS event JOIN events AS before
      ON before.session_id = event.session_id AND before.seq = event.seq - 1
    WHERE event.session_id = sessions.id AND event.at < before.at),
  duration_ms = (
    SELECT CAST(min(total(max(0, event.at - before.at)), 9007199254740991) AS INTEGER)
    FROM events AS event JOIN events AS before
      ON before.session_id = event.session_id AND before.seq = event.seq - 1
    WHERE event.session_id = sessions.id);
