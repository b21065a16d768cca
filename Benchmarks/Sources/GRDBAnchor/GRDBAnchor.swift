import Foundation
import GRDB

/// The GRDB anchor: NavStore's inserts written the way a GRDB user would, with cached statements
/// in write transactions.
public enum GRDBAnchor {
  /// One precomputed event row.
  public struct Row: Sendable {
    public var seq: Int64
    public var at: Int64
    public var origin: String
    public var op: String
    public var hash: Data
    public var snapshot: String?
    public var depth: Int64

    public init(seq: Int64, at: Int64, origin: String, op: String, hash: Data, snapshot: String?, depth: Int64) {
      self.seq = seq
      self.at = at
      self.origin = origin
      self.op = op
      self.hash = hash
      self.snapshot = snapshot
      self.depth = depth
    }
  }

  /// Appends the rows to an existing NavStore file, `batchSize` rows per transaction.
  public static func append(path: String, session: String, rows: [Row], batchSize: Int) throws {
    var configuration = Configuration()
    configuration.foreignKeysEnabled = true
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
    var start = 0
    while start < rows.count {
      let batch = rows[start..<min(start + batchSize, rows.count)]
      try queue.write { db in
        for row in batch {
          if row.seq == 1 {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO sessions (id) VALUES (?)").execute(arguments: [session])
          }
          try db.cachedStatement(
            sql: "INSERT INTO events (session_id, seq, at, origin, op, cause, hash) VALUES (?, ?, ?, ?, ?, NULL, ?)"
          ).execute(arguments: [session, row.seq, row.at, row.origin, row.op, row.hash])
          try db.cachedStatement(
            sql:
              "UPDATE sessions SET event_count = ?, first_at = coalesce(first_at, ?), last_at = ?, head_hash = ?, depth = ? WHERE id = ?"
          ).execute(arguments: [row.seq, row.at, row.at, row.hash, row.depth, session])
          if let snapshot = row.snapshot {
            try db.cachedStatement(sql: "INSERT INTO snapshots (session_id, seq, state) VALUES (?, ?, ?)")
              .execute(arguments: [session, row.seq, snapshot])
          }
        }
      }
      start += batchSize
    }
  }
}
