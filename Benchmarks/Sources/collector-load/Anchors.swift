import BenchmarkProcesses
import Foundation

/// What the collector's throughput is held against, on the same lines in the same run: for
/// SQLite, `navstore import` of the lines into a fresh file (one process, batches of 10,000, the
/// store's own bulk path); for PostgreSQL, `psql`'s `\copy` of the very rows an upload stored
/// (sessions, events, snapshots, in one transaction), the database's own bulk path and the
/// limit of any collector. Each is timed with its process's start.
enum ImportAnchor {
  static func seconds(lines file: URL, into database: [String], navstore: NavstoreCommands) throws -> Double {
    let start = ContinuousClock.now
    try navstore.run(["import", file.path] + database)
    return (ContinuousClock.now - start).seconds
  }
}

enum PostgresCopyAnchor {
  /// The tables an upload writes, in the column order both sides use.
  static let tables: [(name: String, columns: String)] = [
    (
      "sessions",
      "app, id, month, event_count, first_at, last_at, head_hash, depth, restored_from_session, restored_from_seq, "
        + "clock_jumps, duration_ms, foreground_ms, context, phase, launch, launch_reason, dropped_routes"
    ),
    ("events", "app, session_id, month, seq, at, origin, op, cause, hash"),
    ("snapshots", "app, session_id, month, seq, state"),
  ]

  /// The rows `app` holds, table by table, as CSV without the app column, in files of `folder`.
  static func dump(app: String, url: String, folder: URL) throws -> [URL] {
    try tables.map { table in
      let file = folder.appendingPathComponent("rows-\(table.name).csv")
      let columns = table.columns.dropFirst("app, ".count)
      try psql(
        url, "\\copy (SELECT \(columns) FROM \(table.name) WHERE app = '\(app)' ORDER BY 1, 2, 3) TO '\(file.path)' CSV"
      )
      return file
    }
  }

  /// `psql` loading the dumped rows into `app` (made before the clock) with `\copy`, in one
  /// transaction; checks that `events` events arrived.
  static func seconds(rows: [URL], into app: String, url: String, events: Int, folder: URL) throws -> Double {
    var script = ""
    for (table, file) in zip(tables, rows) {
      let prefixed = folder.appendingPathComponent("copy-\(table.name).csv")
      let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: true)
      try Data(lines.map { "\(app),\($0)\n" }.joined().utf8).write(to: prefixed)
      script += "\\copy \(table.name) (\(table.columns)) FROM '\(prefixed.path)' CSV\n"
    }
    let scriptFile = folder.appendingPathComponent("copy.sql")
    try Data(script.utf8).write(to: scriptFile)
    try psql(url, "INSERT INTO apps (name, created_at) VALUES ('\(app)', 0)")
    let start = ContinuousClock.now
    try psql(url, file: scriptFile.path)
    let seconds = (ContinuousClock.now - start).seconds
    let count = try psql(url, "SELECT count(*) FROM events WHERE app = '\(app)'", output: true)
    guard Int(count.trimmingCharacters(in: .whitespacesAndNewlines)) == events else {
      throw LoadError("psql \\copy stored \(count) events of \(events)")
    }
    return seconds
  }

  /// `psql` on `url` with one command or a script, stopping at the first error, in one
  /// transaction; its output when asked for.
  @discardableResult
  static func psql(_ url: String, _ command: String? = nil, file: String? = nil, output: Bool = false) throws -> String
  {
    try Shell.tool(
      "psql",
      [url, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-1"] + (command.map { ["-c", $0] } ?? [])
        + (file.map { ["-f", $0] } ?? []), output: output)
  }
}
