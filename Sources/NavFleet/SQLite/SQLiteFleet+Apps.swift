import Foundation
import NavCore
import NavPersistence

extension SQLiteFleet {
  /// The file that keeps `app`'s sessions: the main file for the default app; for another,
  /// `NAME.sqlite` in a folder beside the main file named after it (`collector.sqlite` keeps the
  /// app `shop` in `collector.apps/shop.sqlite`).
  package func path(of app: AppName) -> String { Self.path(of: app, inFleetAt: path) }

  /// The file that keeps `app`'s sessions for the collector whose main file is at `path` (see
  /// `path(of:)`): where a backup of a whole collector puts each app's copy.
  package static func path(of app: AppName, inFleetAt path: String) -> String {
    guard !app.isDefault else { return path }
    return appsFolder(beside: path) + "/" + app.rawValue + ".sqlite"
  }

  /// The folder beside the main file at `path` that holds the other apps' files.
  static func appsFolder(beside path: String) -> String {
    // As given: a relative path stays relative (a backup names its copies as it was told).
    (path as NSString).deletingPathExtension + ".apps"
  }

  /// The store of `app`'s sessions, opened as the main one is: the main store for the default
  /// app; for another, the app's own file. A writable collector creates the file of an app it
  /// has not seen (and lists the app in `apps()`); a read-only one throws `unknownApp` for it.
  package func store(of app: AppName) throws(FleetError) -> SessionStore {
    guard !app.isDefault else { return main }
    let appPath = path(of: app)
    if main.options.access == .readOnly {
      guard FileManager.default.fileExists(atPath: appPath) else { throw .unknownApp(app) }
      return try FleetError.storing { () throws(StoreError) in
        try SQLiteFleet.openStore(path: appPath, options: main.options)
      }
    }
    let folder = Self.appsFolder(beside: path)
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw .store(.readOnly(path: folder))
    }
    let opened = try FleetError.storing { () throws(StoreError) in
      try SQLiteFleet.openStore(path: appPath, options: main.options)
    }
    try FleetError.storing { () throws(StoreError) in
      try main.withWriteTransaction { connection throws(SQLiteError) in
        try connection.statement("INSERT INTO collector_apps (name, created_at) VALUES (?, ?) ON CONFLICT DO NOTHING")
          .execute([.text(app.rawValue), .integer(Timestamp.now.millisecondsSince1970)])
      }
    }
    return opened
  }

  /// Every app the collector holds: `default` first, then the others by name.
  package func apps() throws(FleetError) -> [AppName] {
    guard hasCollectorTables else { return [.default] }
    return try FleetError.storing { () throws(StoreError) in
      try main.withReadTransaction { connection throws(SQLiteError) in
        let statement = try connection.statement("SELECT name FROM collector_apps ORDER BY name")
        defer { statement.reset() }
        var names: [AppName] = [.default]
        while try statement.step() {
          // A name edited by hand into something else is left out rather than opened.
          if let name = try? AppName(statement.text(0)), !name.isDefault { names.append(name) }
        }
        return names
      }
    }
  }

  /// Every app the collector holds (see the synchronous `apps()`), off the caller's thread.
  package func apps() async throws(FleetError) -> [AppName] {
    try await offloaded { () throws(FleetError) in try self.apps() }
  }

  /// Runs `work` off the caller's thread, on the store's queue (see `SessionStore`'s async calls).
  func offloaded<T: Sendable>(_ work: @escaping @Sendable () throws(FleetError) -> T) async throws(FleetError) -> T {
    let result: Result<T, FleetError>
    do {
      result = try await main.offloaded { () throws(StoreError) in Result { () throws(FleetError) in try work() } }
    } catch {
      throw FleetError(error)
    }
    return try result.get()
  }
}
