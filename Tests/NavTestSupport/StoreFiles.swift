import NavPersistence

/// Marks the store at `path` as written by a newer NavStore (schema `version`), as a downgraded
/// app finds it.
public func markAsNewerSchema(_ path: String, version: Int = 999) throws {
  try SQLiteConnection(path: path, mode: .readWrite(create: false)).execute("PRAGMA user_version = \(version)")
}

/// The SQL that takes a store back from schema 19 to what schema 15 made: no journeys, no
/// received order. Tests that make a store of an older schema run it first, then undo the
/// schemas before.
public let schema16Undone = """
  ALTER TABLE sessions DROP COLUMN journey_received;
  DROP INDEX sessions_by_journey;
  ALTER TABLE sessions DROP COLUMN journey;
  DROP INDEX sessions_by_received;
  ALTER TABLE sessions DROP COLUMN received;
  ALTER TABLE events DROP COLUMN received;
  DROP TABLE receipt_counter;
  DELETE FROM schema_migrations WHERE version >= 16;
  PRAGMA user_version = 15;
  """
