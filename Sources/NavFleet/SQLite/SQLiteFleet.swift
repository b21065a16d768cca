import Foundation
import NavCore
import NavPersistence

/// A collector's store on SQLite: every app's sessions and the tokens that reach them, in store
/// files on one machine.
///
/// The main file keeps the default app's sessions and the collector's own tables (apps and
/// tokens); each other app keeps its sessions in a file of its own beside it
/// (`collector.sqlite` keeps the app `shop` in `collector.apps/shop.sqlite`), so one app's
/// writes never wait for another's. Safe to share between threads and tasks, as `SessionStore`
/// is.
package final class SQLiteFleet: Sendable {
  /// The main file's store: the default app's sessions.
  package let main: SessionStore
  /// Whether the main file has the collector's tables: only a read-only open of a file no
  /// collector ever used has none, and then it has no app but the default and no token.
  let hasCollectorTables: Bool

  /// Opens (and for writers, creates and migrates) the collector's store whose main file is at
  /// `path`. A collector's file from before the collector's tables had their own has its apps
  /// and tokens moved into them, losing none.
  package init(path: String, options: StoreOptions = StoreOptions()) throws(FleetError) {
    main = try FleetError.storing { () throws(StoreError) in
      try CollectorSchema.openStore(path: path, options: options)
    }
    if options.access == .readWrite { try CollectorSchema.migrate(main) }
    hasCollectorTables = try CollectorSchema.version(of: main) > 0
  }

  /// The main file's path.
  package var path: String { main.path }

  /// Opens the device-style store at `path` as `SessionStore(path:options:)` does, after moving
  /// a collector's apps and tokens out of the tables the store's schema 13 removes, when the
  /// file still has them: how `navstore` opens every store it is given.
  package static func openStore(path: String, options: StoreOptions = StoreOptions()) throws(StoreError)
    -> SessionStore
  {
    try CollectorSchema.openStore(path: path, options: options)
  }
}
