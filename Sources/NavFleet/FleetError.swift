import NavContract
import NavPersistence

/// Why the collector's store refused or failed: a store's own error, or one about the apps and
/// tokens only a collector keeps.
///
/// Each front end words it for its own audience: the collector as an HTTP status and the
/// contract's JSON body, `navstore` as one line.
package enum FleetError: HistoryFailure, Hashable, Sendable, CustomStringConvertible {
  /// A store file failed (see `StoreError`): its disk, SQLite, the file itself. Its rules'
  /// refusals are `history`, as PostgreSQL's are.
  case store(StoreError)
  /// The history's rules refused an event, or a history could not be read back (see
  /// `HistoryError`), whichever engine holds it.
  case history(HistoryError)
  /// No app of this name (a read-only store makes none).
  case unknownApp(AppName)
  /// No token has this id.
  case unknownToken(String)
  /// A token's label that cannot be one: what is wrong with it.
  case invalidTokenLabel(reason: String)
  /// The collector's tables were written by a newer NavStore; the file was left untouched.
  case newerCollectorTables(path: String, found: Int, supported: Int)
  /// An app's store file cannot serve now (missing, replaced or removed while serving): why,
  /// naming the file.
  case unusableStore(app: AppName, reason: String)
  /// A line of an import the store would not take (its number in the input, and why); nothing
  /// of its transaction was kept.
  case rejectedLine(line: Int, LineRejection)
  /// A PostgreSQL address that cannot be one: what is wrong with it.
  case invalidDatabaseAddress(String)
  /// The PostgreSQL database cannot be reached or failed the work (`address` without its
  /// password, and what the client or the server said): nothing of the work was kept.
  case database(address: String, reason: String)
  /// The PostgreSQL database's schema was written by a newer NavStore; it was left untouched.
  case newerDatabaseSchema(address: String, found: Int, supported: Int)

  package var description: String {
    switch self {
    case .store(let error): error.description
    case .history(let error): error.description
    case .unknownApp(let app): "no app '\(app)' in the store"
    case .unknownToken(let id): "no token '\(id)' in the store"
    case .invalidTokenLabel(let reason): "a token's label \(reason)"
    case .newerCollectorTables(let path, let found, let supported):
      "the collector's tables in '\(path)' were written by a newer NavStore (version \(found); this one knows up to \(supported)); it was left untouched"
    case .unusableStore(_, let reason): reason
    case .rejectedLine(let line, let rejection):
      rejection.reason == .invalid ? rejection.message : "line \(line): \(rejection.message)"
    case .invalidDatabaseAddress(let reason): "not a PostgreSQL address: \(reason)"
    case .database(let address, let reason): "the database at \(address) failed: \(reason)"
    case .newerDatabaseSchema(let address, let found, let supported):
      "the schema of the database at \(address) was written by a newer NavStore (version \(found); this one knows up to \(supported)); it was left untouched"
    }
  }

  /// Whether the failure is the store's or its disk's rather than the request's (see
  /// `StoreError.isStorageFailure`).
  package var isStorageFailure: Bool {
    switch self {
    case .store(let error): error.isStorageFailure
    case .database, .unusableStore: true
    default: false
    }
  }

  /// Whether the store itself refused or failed the work (`history`: a rule, a history it cannot
  /// read; `store`: a store file's own failure), rather than the database or the request: a
  /// failure that may belong to one upload of several written together.
  package var comesFromTheStore: Bool {
    switch self {
    case .store, .history: true
    default: false
    }
  }

  /// A store file's failure: its rules' refusals as `history`, the rest as `store`.
  package init(_ error: StoreError) {
    self = error.history.map(FleetError.history) ?? .store(error)
  }

  /// Runs store work, its failure as a `FleetError`.
  package static func storing<T>(_ body: () throws(StoreError) -> T) throws(FleetError) -> T {
    do {
      return try body()
    } catch {
      throw FleetError(error)
    }
  }

  /// Runs asynchronous store work, its failure as a `FleetError`.
  static func storingAsync<T>(_ body: () async throws(StoreError) -> T) async throws(FleetError) -> T {
    do {
      return try await body()
    } catch {
      throw FleetError(error)
    }
  }
}

extension FleetError {
  /// The rules' failure as the collector's store reports it.
  package init(_ error: HistoryError) { self = .history(error) }

  /// The rules' failure this is, when it is one, whichever engine reported it.
  package var history: HistoryError? {
    switch self {
    case .history(let error): error
    case .store(let error): error.history
    default: nil
    }
  }
}
