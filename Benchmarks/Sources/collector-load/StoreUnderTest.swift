import BenchmarkProcesses
import Foundation

/// A store the collector runs on, giving each run a fresh, empty place: a new SQLite file, or a
/// new app in the PostgreSQL database (so every run writes into tables of the same database,
/// the way a shared store grows).
struct StoreUnderTest {
  enum Kind: String, Codable { case sqlite, postgres }

  let kind: Kind
  private let folder: URL
  private let url: String?
  private let run: String
  private var number = 0
  /// The place `fresh()` gave last.
  private(set) var last: (database: [String], app: String)?

  static func sqlite(folder: URL, run: String) -> StoreUnderTest {
    StoreUnderTest(kind: .sqlite, folder: folder, url: nil, run: run)
  }

  static func postgres(url: String, folder: URL, run: String) -> StoreUnderTest {
    StoreUnderTest(kind: .postgres, folder: folder, url: url, run: run)
  }

  /// A fresh place: the `--db` arguments naming it, and its app.
  mutating func fresh() -> (database: [String], app: String) {
    number += 1
    let place: (database: [String], app: String)
    switch kind {
    case .sqlite:
      // The previous run's file is done with: a long run would otherwise fill the disk.
      if let last {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: last.database[1] + suffix) }
      }
      let path = folder.appendingPathComponent("collector-\(number).sqlite").path
      place = (["--db", path], "default")
    case .postgres:
      place = (["--db", url ?? ""], "\(run)-\(number)")
    }
    last = place
    return place
  }

  /// The number of events stored for `app` in `database`, counted by the store itself.
  func storedEvents(_ database: [String], app: String, navstore: NavstoreCommands) throws -> Int {
    switch kind {
    case .sqlite:
      let text = try Shell.tool("sqlite3", [database[1], "SELECT count(*) FROM events"], output: true)
      return Int(text) ?? -1
    case .postgres:
      let text = try PostgresCopyAnchor.psql(
        url ?? "", "SELECT count(*) FROM events WHERE app = '\(app)'", output: true)
      return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }
  }

  /// Every session of the place verifies, hash chain and replay (`navstore verify`).
  func verify(_ database: [String], app: String, navstore: NavstoreCommands) throws {
    try navstore.run(["verify"] + database + (kind == .postgres ? ["--app", app] : []))
  }
}
