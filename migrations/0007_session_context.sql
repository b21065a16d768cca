-- NavStore schema 7: what each session runs on (app version, system, device, locale, time zone,
-- an opaque user id, the app's own keys), from its start event's `context`, kept in the row so
-- that listings, filters and the sessions export read it without reading events. `verify` holds
-- it to the start event. Sessions stored before have no context: their starts could not carry one.
ALTER TABLE sessions ADD COLUMN context TEXT;  -- the start's context, canonical JSON, or NULL
