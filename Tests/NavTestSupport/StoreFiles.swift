import NavPersistence

/// Marks the store at `path` as written by a newer NavStore (schema `version`), as a downgraded
/// app finds it.
public func markAsNewerSchema(_ path: String, version: Int = 999) throws {
  try SQLiteConnection(path: path, mode: .readWrite(create: false)).execute("PRAGMA user_version = \(version)")
}
