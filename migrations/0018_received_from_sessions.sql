-- NavStore schema 18: a write transaction no longer writes the receipt counter. Its number is
-- one more than the last number received: the highest of `received_order.last` and the
-- sessions' own `received` (the last entry of `sessions_by_received`, read, not written). The
-- counter's row is written only when a session is forgotten, raised first to that session's
-- number, so that a number handed out before is never handed out again. Each append had written
-- the counter's page into the WAL, one page in five of a durable append. The numbers go on
-- from where schema 16 and 17 left them; older builds, which take numbers from the row alone,
-- must not write here again, hence the new version.
UPDATE received_order SET last = max(last, (SELECT coalesce(max(received), 1) FROM sessions));
