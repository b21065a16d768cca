import NavPersistence

/// Why the collector's store refused or failed: a store's own error, or one about the apps and
/// tokens only a collector keeps.
///
/// Each front end words it for its own audience: the collector as an HTTP status and the
/// contract's JSON body, `navstore` as one line.
public enum FleetError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The store refused or failed (see `StoreError`).
  case store(StoreError)
  /// No app of this name (a read-only store makes none).
  case unknownApp(AppName)
  /// No token has this id.
  case unknownToken(String)
  /// A token's label that cannot be one: what is wrong with it.
  case invalidTokenLabel(reason: String)
  /// The collector's tables were written by a newer NavStore; the file was left untouched.
  case newerCollectorTables(path: String, found: Int, supported: Int)

  public var description: String {
    switch self {
    case .store(let error): error.description
    case .unknownApp(let app): "no app '\(app)' in the store"
    case .unknownToken(let id): "no token '\(id)' in the store"
    case .invalidTokenLabel(let reason): "a token's label \(reason)"
    case .newerCollectorTables(let path, let found, let supported):
      "the collector's tables in '\(path)' were written by a newer NavStore (version \(found); this one knows up to \(supported)); it was left untouched"
    }
  }

  /// Whether the failure is the store's or its disk's rather than the request's (see
  /// `StoreError.isStorageFailure`).
  public var isStorageFailure: Bool {
    if case .store(let error) = self { return error.isStorageFailure }
    return false
  }

  /// Runs store work, its failure as a `FleetError`.
  static func storing<T>(_ body: () throws(StoreError) -> T) throws(FleetError) -> T {
    do {
      return try body()
    } catch {
      throw .store(error)
    }
  }
}
