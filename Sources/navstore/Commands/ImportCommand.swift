import ArgumentParser
import Foundation
import NavCore
import NavFleet
@_spi(Internals) import NavPersistence

/// `navstore import`: JSON Lines events into the store.
struct ImportCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Import JSON Lines events (the wire format's Event, one per line).",
    discussion: """
      All lines are one transaction unless --batch N. A bad line stops the import, names its \
      line number, and keeps nothing of its transaction; so does a line longer than \
      --max-line-bytes, refused as soon as that many bytes arrive without a newline. Events \
      with a seq that are already stored with the same content are skipped, so importing a \
      file twice is harmless when its lines carry seqs (history --json and the events export \
      write them); a line without a seq is appended after the session's events.

      Examples:
        navstore import device-42.jsonl
        cat *.jsonl | navstore import - --batch 10000

      Into a PostgreSQL store (--db postgres://...), lines go in transactions of --batch lines \
      (10,000 unless given), each taken as the collector takes an upload: a bad line stops the \
      import, keeping the transactions before its own.
      """)

  @OptionGroup var store: StoreOption

  @Argument(help: "The file to import, or - for standard input.")
  var file: String

  @Option(parsing: .unconditional, help: "Commit every N lines instead of once at the end.")
  var batch: Int?

  @Option(parsing: .unconditional, help: "Refuse a line longer than this many bytes (default: 16 MiB).")
  var maxLineBytes: Int = LineReader.defaultMaximumLineLength

  func validate() throws {
    if let batch, batch < 1 { throw ValidationError("--batch must be 1 or more, not \(batch)") }
    if maxLineBytes < 1 { throw ValidationError("--max-line-bytes must be 1 or more, not \(maxLineBytes)") }
  }

  func run() async throws {
    let handle: FileHandle
    if file == "-" {
      handle = FileHandle.standardInput
    } else {
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), isDirectory.boolValue {
        throw CLIError("'\(file)' is a folder; import reads a JSON Lines file, or - for standard input")
      }
      guard let opened = FileHandle(forReadingAtPath: file) else {
        throw CLIError("cannot read '\(file)' (does it exist and is it readable?)")
      }
      handle = opened
    }
    if let address = try store.location.postgresAddress() {
      try await importIntoPostgres(LineReader(handle: handle, maximumLineLength: maxLineBytes), address: address)
      return
    }
    let path = store.resolvedPath
    let existed = FileManager.default.fileExists(atPath: path)
    let opened = try store.open(forWriting: true)
    let progress = ProgressCounter(label: "importing", unit: "lines")
    let summary: ImportSummary
    do {
      summary = try storeCall { () throws(StoreError) in
        try opened.importJSONLines(from: LineReader(handle: handle, maximumLineLength: maxLineBytes), batchSize: batch)
        { lines, _ in progress.update(lines) }
      }
    } catch {
      progress.finish()
      if !existed { Self.removeIfEmpty(path) }
      throw error
    }
    progress.finish()
    print(
      "imported \(summary.appended) event\(summary.appended == 1 ? "" : "s") into \(summary.sessions) session\(summary.sessions == 1 ? "" : "s")"
        + (summary.alreadyStored > 0 ? " (\(summary.alreadyStored) already stored, skipped)" : ""))
  }

  /// The lines into a PostgreSQL store, a transaction of `--batch` lines at a time.
  private func importIntoPostgres(_ reader: LineReader, address: PostgresAddress) async throws {
    let (app, size) = (store.appName, batch ?? 10_000)
    let progress = ProgressCounter(label: "importing", unit: "lines")
    defer { progress.finish() }
    var appended = 0
    var skipped = 0
    var sessions: Set<SessionID> = []
    try await PostgresStore.with(address, schema: .current, app: .made(app)) { fleet in
      var read = 0
      while true {
        var lines: [ArraySlice<UInt8>] = []
        do throws(LineReaderError) {
          while lines.count < size, let line = try reader.next() { lines.append(line) }
        } catch {
          throw CLIError(StoreError.unreadableInput(error).terminalMessage)
        }
        guard !lines.isEmpty else { return }
        let batch = lines
        let first = read + 1
        let outcome = try await fleetCall { () async throws(FleetError) in
          try await fleet.ingest(batch, app: app, numberedFrom: first, allOrNothing: true)
        }
        appended += outcome.accepted
        skipped += outcome.duplicates
        for (session, head) in outcome.heads where head.seq > 0 { sessions.insert(session) }
        read += lines.count
        progress.update(read)
      }
    }
    progress.finish()
    print(
      "imported \(appended) event\(appended == 1 ? "" : "s") into \(sessions.count) session\(sessions.count == 1 ? "" : "s")"
        + (skipped > 0 ? " (\(skipped) already stored, skipped)" : ""))
  }

  /// Removes a store this import created and kept nothing in, so a failed import leaves no
  /// empty store behind. Only under an exclusive lock on an empty store: another process that
  /// is writing to it (or has written) keeps it. A process that opened the new file but has
  /// not begun to write in it yet is the one case this cannot see.
  private static func removeIfEmpty(_ path: String) {
    guard
      let connection = try? SQLiteConnection(path: path, mode: .readWrite(create: false), busyTimeoutMilliseconds: 0)
    else { return }
    guard (try? connection.execute("BEGIN EXCLUSIVE")) != nil else { return }
    defer { try? connection.execute("ROLLBACK") }
    let rows =
      (try? connection.integer("SELECT (SELECT count(*) FROM sessions) + (SELECT count(*) FROM events)")) ?? nil
    guard rows == 0 else { return }
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
  }
}
