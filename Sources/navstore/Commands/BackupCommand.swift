import ArgumentParser
import NavPersistence

/// `navstore backup`: the whole store, as it stands at one moment, in a new single file.
struct BackupCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "backup",
    abstract: "Write the whole store, as it stands now, to a new single file.",
    discussion: """
      The copy is one self-contained SQLite file (nothing of it in a -wal file beside it) that \
      every navstore command opens: for a support ticket, or to take a store off a device. \
      Programs may go on writing to the store meanwhile; their later writes are not in the copy. \
      Never writes over an existing file.

      Examples:
        navstore backup --out ticket-4711.sqlite
        navstore backup --db app.sqlite --out /tmp/app-copy.sqlite
      """)

  @OptionGroup var store: StoreOption

  @Option(help: "The new file to write (it must not exist).")
  var out: String

  func validate() throws {
    guard !out.isEmpty else { throw ValidationError("--out: the path is empty") }
  }

  func run() throws {
    let opened = try store.open(forWriting: false)
    try storeCall { () throws(StoreError) in try opened.backup(to: out) }
    // What the copy holds (the store may have moved on since).
    let copy = try StoreOption.open(path: out, forWriting: false)
    let sessions = try storeCall { () throws(StoreError) in try copy.sessions() }
    let events = sessions.reduce(0) { $0 + $1.eventCount }
    print(
      "backup of \(sessions.count) session\(sessions.count == 1 ? "" : "s") and \(events) event\(events == 1 ? "" : "s") "
        + "written to \(out)")
  }
}
