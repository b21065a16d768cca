import ArgumentParser
import Foundation
import NavFleet
import NavPersistence

/// `navstore backup`: the whole store, as it stands at one moment, in a new single file; for a
/// collector, every app's store beside it.
struct BackupCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "backup",
    abstract: "Write the whole store, as it stands now, to a new single file (a collector: every app's).",
    discussion: """
      The copy is one self-contained SQLite file (nothing of it in a -wal file beside it) that \
      every navstore command opens: for a support ticket, or to take a store off a device. \
      Programs may go on writing to the store meanwhile; their later writes are not in the copy. \
      Never writes over an existing file.

      A collector's store keeps each app's sessions in a file of its own (collector.apps/NAME.sqlite): \
      its backup is the store's file and, beside it, a copy of every app's file it lists, laid \
      out the same way, so 'navstore serve --db OUT' serves the copy as it is. The main file is \
      copied first and then each app it lists, each as it stands at its own moment; an app made \
      after the main file's copy is not in the backup at all.

      Examples:
        navstore backup --out ticket-4711.sqlite
        navstore backup --db app.sqlite --out /tmp/app-copy.sqlite
        navstore backup --db collector.sqlite --out /backups/collector-2026-11-26.sqlite
      """)

  @OptionGroup var store: StoreOption

  @Option(help: "The new file to write (it must not exist; nor, for a collector, its .apps folder).")
  var out: String

  func validate() throws {
    guard !out.isEmpty else { throw ValidationError("--out: the path is empty") }
  }

  func run() throws {
    try store.location.requireFile(
      elsewhere:
        "a PostgreSQL store is backed up by PostgreSQL's own tools: pg_dump (pg_dump -Fc -f fleet.dump DATABASE), "
        + "or the server's base backups with point-in-time recovery")
    let original = try StoreOption.openFleet(path: store.resolvedPath, forWriting: false)
    let opened = try fleetCall { () throws(FleetError) in try original.store(of: store.app ?? .default) }
    try storeCall { () throws(StoreError) in try opened.backup(to: out) }
    // The apps the copy lists, each copied in turn into the copy's layout.
    let copy = try StoreOption.openFleet(path: out, forWriting: false)
    let apps = try fleetCall { () throws(FleetError) in try copy.apps() }
    var lines: [String] = []
    for app in apps {
      let destination = SQLiteFleet.path(of: app, inFleetAt: out)
      if !app.isDefault {
        let source = try fleetCall { () throws(FleetError) in try original.store(of: app) }
        do {
          try FileManager.default.createDirectory(
            atPath: (destination as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        } catch {
          throw CLIError("cannot create the folder for '\(destination)': \(LineReaderError.systemReason(for: error))")
        }
        try storeCall { () throws(StoreError) in try source.backup(to: destination) }
      }
      let written = try StoreOption.open(path: destination, forWriting: false)
      let sessions = try storeCall { () throws(StoreError) in try written.sessions() }
      let events = sessions.reduce(0) { $0 + $1.eventCount }
      lines.append(
        "\(app): \(sessions.count) session\(sessions.count == 1 ? "" : "s") and \(events) event\(events == 1 ? "" : "s")"
          + (app.isDefault ? "" : " in \(destination)"))
    }
    if apps.count == 1, let only = lines.first {
      print("backup of \(only.dropFirst("default: ".count)) written to \(out)")
    } else {
      print("backup of \(apps.count) apps written to \(out):")
      for line in lines { print("  " + line) }
    }
  }
}
