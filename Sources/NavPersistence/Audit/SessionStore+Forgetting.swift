import Foundation
import NavCore

/// Forgetting sessions, for erasure requests and retention limits: their content is deleted,
/// a tombstone is kept, and audits against older checkpoints tell the erasure from tampering.
extension SessionStore {
  /// Forgets `sessions` in one transaction: each one's snapshots, events and row are deleted
  /// and its tombstone written. All or nothing: an unknown or already forgotten session
  /// refuses the whole call. The file keeps its size until `reclaimSpace()`.
  @discardableResult
  public func forget(_ sessions: [SessionID], at time: Timestamp) throws(StoreError) -> [Tombstone] {
    try withWriteTransaction { engine throws(StoreError) in
      var tombstones: [Tombstone] = []
      // In id order as SQLite orders them (by bytes), as listings and checkpoints do.
      for session in Set(sessions).sorted(by: { $0.rawValue.utf8.lexicographicallyPrecedes($1.rawValue.utf8) }) {
        tombstones.append(try engine.forget(session, at: time))
      }
      return tombstones
    }
  }

  /// Forgets, in one transaction, every session whose last event is before `cutoff` (a
  /// retention limit). Returns their tombstones; none when no session is that old.
  @discardableResult
  public func prune(before cutoff: Timestamp, at time: Timestamp) throws(StoreError) -> [Tombstone] {
    try withWriteTransaction { engine throws(StoreError) in
      var tombstones: [Tombstone] = []
      for session in try engine.sessions(lastBefore: cutoff) {
        tombstones.append(try engine.forget(session, at: time))
      }
      return tombstones
    }
  }

  /// The sessions whose last event is before `cutoff`: what `prune(before:at:)` would forget.
  public func sessions(lastBefore cutoff: Timestamp) throws(StoreError) -> [SessionID] {
    try withReadTransaction { engine throws(StoreError) in try engine.sessions(lastBefore: cutoff) }
  }

  /// Every tombstone, in session id order.
  public func tombstones() throws(StoreError) -> [Tombstone] {
    try withReadTransaction { engine throws(StoreError) in try engine.tombstones() }
  }

  /// Gives the space of deleted rows back to the file system: SQLite's `VACUUM`, then a
  /// checkpoint of the write-ahead log into the file, truncating the log. Returns the bytes of
  /// the file and its log before and after. Needs the store to itself for as long as it runs
  /// (other connections' reads must not be in a transaction), and about the store's size free.
  public func reclaimSpace() throws(StoreError) -> (before: Int64, after: Int64) {
    let before = fileBytes()
    try withWriterOutsideTransactions { engine throws(StoreError) in
      try engine.run("VACUUM")
      try engine.run("PRAGMA wal_checkpoint(TRUNCATE)")
    }
    return (before, fileBytes())
  }

  /// The bytes of the store's file and its write-ahead log.
  private func fileBytes() -> Int64 {
    [path, path + "-wal"].reduce(0) { total, file in
      total + ((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.int64Value ?? 0)
    }
  }
}
