#if Collector
import Logging
import NavPersistence

/// The store of each app a collector serves, opened once and kept, and held to its file: the
/// main file for the default app, a file beside it for each other (`SQLiteFleet.path(of:)`).
///
/// The collector never makes an app's file: `navstore token create` does, when it makes the
/// app. An app whose file is missing is an error (a 503, and a log line naming the file), never
/// a new empty store that would answer for sessions it does not have. Each file's identity
/// (device and inode, and its write-ahead log's once seen) is noted when it is opened, and
/// checked before an upload is stored and again before it is acknowledged: a file removed or
/// replaced while serving makes that app's uploads 503 and `/readyz` not ready, with a log line
/// naming it, until the collector is restarted on the file that is there.
actor AppStores {
  /// Why an app's store cannot take writes, in a sentence that names its file.
  struct Broken: Error {
    let app: AppName
    let reason: String
  }

  private struct Opened: Sendable {
    let store: SessionStore
    /// Where its uploads wait to be written together.
    let uploads: IngestQueue
    let identity: FileIdentity
    var walIdentity: FileIdentity?
    var broken: String?
  }

  private let fleet: SQLiteFleet
  private let logger: Logger
  private var opened: [AppName: Opened] = [:]
  /// The apps whose store is being opened, for the callers that ask meanwhile.
  private var opening: [AppName: Task<Opened, any Error>] = [:]
  /// The apps whose file could not be opened, with why, each logged once (the next request
  /// tries again: the file may have been put back).
  private var unopened: [AppName: String] = [:]

  init(fleet: SQLiteFleet, logger: Logger) {
    self.fleet = fleet
    self.logger = logger
    if let identity = FileIdentity.of(fleet.path) {
      opened[.default] = Opened(
        store: fleet.main, uploads: IngestQueue(store: fleet.main), identity: identity,
        walIdentity: FileIdentity.of(fleet.path + "-wal"))
    }
  }

  /// The store of `app`, checked against its file. Throws `Broken` (untyped: a typed throw of
  /// this struct across the actor crashed Swift 6.3's optimizer, splitting the callers'
  /// coroutines).
  ///
  /// A store not yet open is opened (and migrated) on the store's queue, off the actor: the
  /// callers for other apps go on meanwhile, and those for the same app wait for that opening.
  func store(for app: AppName) async throws -> SessionStore { try await entry(for: app).store }

  /// The upload queue of `app`'s store, checked against its file as `store(for:)` does. Throws
  /// `Broken`.
  func uploads(for app: AppName) async throws -> IngestQueue { try await entry(for: app).uploads }

  /// `app`'s opened store, opening it first when no caller has. The callers that arrive while it
  /// opens are given the opening's own entry: `opened` is set only once the first caller is back
  /// on the actor, which may be after them.
  private func entry(for app: AppName) async throws -> Opened {
    if let entry = opened[app] {
      try check(app)
      return entry
    }
    if let opening = opening[app] { return try await opening.value }
    let task = Task { [fleet] in try await Self.open(app, in: fleet) }
    opening[app] = task
    let result = await task.result
    opening[app] = nil
    switch result {
    case .success(let entry):
      unopened[app] = nil
      opened[app] = entry
      return entry
    case .failure(let error):
      throw unopenable(app, (error as? Broken)?.reason ?? "\(error)")
    }
  }

  /// Opens `app`'s file on the store's queue, noting its identity first. Throws `Broken`.
  private static func open(_ app: AppName, in fleet: SQLiteFleet) async throws -> Opened {
    let path = fleet.path(of: app)
    let result = await SessionStore.offloaded { () throws(Broken) -> Opened in
      guard let identity = FileIdentity.of(path) else {
        throw Broken(
          app: app, reason: "the store file of app '\(app)' at \(path) is missing (restore it, or make the app again)")
      }
      do {
        let store = try fleet.store(of: app)
        return Opened(
          store: store, uploads: IngestQueue(store: store), identity: identity,
          walIdentity: FileIdentity.of(path + "-wal"))
      } catch {
        throw Broken(app: app, reason: "the store file of app '\(app)' at \(path) cannot be opened: \(error)")
      }
    }
    return try result.get()
  }

  /// Whether `app`'s file (and write-ahead log) is still the one opened; throws, once and for
  /// good, when it is not.
  func check(_ app: AppName) throws {
    guard var entry = opened[app] else { return }
    if let reason = entry.broken { throw Broken(app: app, reason: reason) }
    let path = fleet.path(of: app)
    let reason: String
    switch FileIdentity.of(path) {
    case nil: reason = "the store file of app '\(app)' at \(path) was removed while serving"
    case let identity? where identity != entry.identity:
      reason = "the store file of app '\(app)' at \(path) was replaced by another file while serving"
    default:
      let wal = FileIdentity.of(path + "-wal")
      switch (entry.walIdentity, wal) {
      case (nil, let seen?):
        entry.walIdentity = seen
        opened[app] = entry
        return
      case (let known?, let seen) where seen != known:
        reason =
          "the write-ahead log of app '\(app)' at \(path)-wal was \(seen == nil ? "removed" : "replaced") while serving"
      default:
        return
      }
    }
    throw broken(app, reason)
  }

  /// Why each store that cannot serve cannot: those opened and since removed or replaced, and
  /// those that could not be opened.
  func problems() -> [String] {
    for app in opened.keys { try? check(app) }
    return (opened.values.compactMap(\.broken) + unopened.values).sorted()
  }

  /// Each opened store's files, for the metrics.
  func figures() -> [StoreFigures] {
    opened.keys.sorted { $0.rawValue < $1.rawValue }.map { app in
      let path = fleet.path(of: app)
      return StoreFigures(
        app: app.rawValue, databaseBytes: FileIdentity.size(of: path), walBytes: FileIdentity.size(of: path + "-wal"),
        ready: opened[app]?.broken == nil)
    }
  }

  /// Records `reason` against the opened store of `app`, for good, and logs it once.
  private func broken(_ app: AppName, _ reason: String) -> Broken {
    if var entry = opened[app], entry.broken == nil {
      entry.broken = reason
      opened[app] = entry
      logger.error("store unusable", metadata: ["app": "\(app)", "cause": "\(reason); it answers 503 until a restart"])
    }
    return Broken(app: app, reason: reason)
  }

  /// Records why `app`'s store could not be opened, and logs it the first time.
  private func unopenable(_ app: AppName, _ reason: String) -> Broken {
    if unopened[app] != reason {
      unopened[app] = reason
      logger.error("store unusable", metadata: ["app": "\(app)", "cause": "\(reason)"])
    }
    return Broken(app: app, reason: reason)
  }
}
#endif
