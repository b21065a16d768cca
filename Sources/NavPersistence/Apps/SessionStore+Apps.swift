import Foundation
import NavCore

extension SessionStore {
  /// The file that keeps `app`'s sessions: this store's own for the default app; for another,
  /// `NAME.sqlite` in a folder beside this store named after it (`collector.sqlite` keeps the
  /// app `shop` in `collector.apps/shop.sqlite`).
  public func path(of app: AppName) -> String { Self.path(of: app, inStoreAt: path) }

  /// The file that keeps `app`'s sessions for the store at `path` (see `path(of:)`): where a
  /// backup of a whole collector puts each app's copy.
  package static func path(of app: AppName, inStoreAt path: String) -> String {
    guard !app.isDefault else { return path }
    return appsFolder(beside: path) + "/" + app.rawValue + ".sqlite"
  }

  /// The folder beside the store at `path` that holds its other apps' files.
  static func appsFolder(beside path: String) -> String {
    // As given: a relative path stays relative (a backup names its copies as it was told).
    (path as NSString).deletingPathExtension + ".apps"
  }

  /// The store of `app`'s sessions, opened as this one is: this store itself for the default
  /// app; for another, the app's own file. A writable store creates the file of an app it has
  /// not seen (and lists the app in `apps()`); a read-only one throws `unknownApp` for it.
  ///
  /// Each app is a store file of its own: its sessions, their checkpoints and launches never
  /// meet another app's, and its writes do not wait for another app's.
  public func app(_ app: AppName) throws(StoreError) -> SessionStore {
    guard !app.isDefault else { return self }
    guard !Self.isInMemory(path) else { throw StoreError.unknownApp(app) }
    let appPath = path(of: app)
    if options.access == .readOnly {
      guard FileManager.default.fileExists(atPath: appPath) else { throw StoreError.unknownApp(app) }
      return try SessionStore(path: appPath, options: options)
    }
    let folder = Self.appsFolder(beside: path)
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw StoreError.readOnly(path: folder)
    }
    let opened = try SessionStore(path: appPath, options: options)
    try write { engine throws(StoreError) in
      try engine.execute(
        try engine.prepare("INSERT INTO apps (name, created_at) VALUES (?, ?) ON CONFLICT DO NOTHING"),
        [.text(app.rawValue), .integer(Timestamp.now.millisecondsSince1970)])
    }
    return opened
  }

  /// Every app the store holds: `default` first, then the others by name.
  public func apps() throws(StoreError) -> [AppName] {
    try read { engine throws(StoreError) in
      let statement = try engine.prepare("SELECT name FROM apps ORDER BY name")
      defer { statement.reset() }
      var names: [AppName] = [.default]
      while try engine.step(statement) {
        // A name edited by hand into something else is left out rather than opened.
        if let name = try? AppName(statement.text(0)), !name.isDefault { names.append(name) }
      }
      return names
    }
  }

  /// Every app the store holds (see the synchronous `apps()`), off the caller's thread.
  public func apps() async throws(StoreError) -> [AppName] {
    try await offloaded { () throws(StoreError) in try self.apps() }
  }
}
