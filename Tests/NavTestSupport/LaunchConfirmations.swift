import NavPersistence

/// Waits, for up to `limit`, until every launch noted in the store at `path` is confirmed (the
/// background task `confirm(_:once:)` starts has run); returns whether they all were.
public func launchesConfirmed(inStoreAt path: String, within limit: Duration = .seconds(20)) async throws -> Bool {
  let deadline = ContinuousClock.now + limit
  while ContinuousClock.now < deadline {
    if try unconfirmedLaunches(inStoreAt: path) == 0 { return true }
    try await Task.sleep(for: .milliseconds(50))
  }
  return false
}

/// How many launches noted in the store at `path` are not confirmed yet.
public func unconfirmedLaunches(inStoreAt path: String) throws -> Int {
  let connection = try SQLiteConnection(path: path, mode: .readOnly)
  let statement = try connection.statement("SELECT count(*) FROM launches WHERE confirmed_at IS NULL")
  _ = try statement.step()
  return Int(statement.int64(0))
}
