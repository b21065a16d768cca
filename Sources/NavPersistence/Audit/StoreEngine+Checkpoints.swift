import NavCore

/// The checkpoint tables of schema 3 (`migrations/0003_checkpoints.sql`).
extension StoreEngine {
  /// The store's identity, made once when the store was created.
  func storeIdentity() throws(StoreError) -> String {
    let statement = try prepare("SELECT id FROM store_identity")
    defer { statement.reset() }
    guard try step(statement) else { throw StoreError.checkpoint(.identityMissing) }
    return statement.text(0)
  }

  /// Every session with events, in id order (SQLite's byte order of the ids), as a checkpoint
  /// commits to it; and the number of events in all.
  func checkpointEntries() throws(StoreError) -> (entries: [CheckpointEntry], events: Int) {
    let statement = try prepare("SELECT id, event_count, head_hash FROM sessions WHERE event_count > 0 ORDER BY id")
    defer { statement.reset() }
    var entries: [CheckpointEntry] = []
    var events = 0
    while try step(statement) {
      let session = try Self.storedSessionID(statement.text(0))
      guard !statement.isNull(2) else {
        throw StoreError.unreadableHistory(session: session, seq: statement.int(1), reason: "the session has events but no head hash")
      }
      entries.append(CheckpointEntry(session: session, seq: statement.int(1), hash: statement.blob(2)))
      events += statement.int(1)
    }
    return (entries, events)
  }

  /// Keeps a checkpoint the store wrote, with its leaves.
  func record(_ checkpoint: Checkpoint, note: SignedNote, entries: [CheckpointEntry]) throws(StoreError) {
    try execute(
      try prepare("INSERT INTO checkpoints (made_at, root_hash, note) VALUES (?, ?, ?)"),
      [.integer(checkpoint.time.millisecondsSince1970), .blob(checkpoint.rootHash), .text(note.serialized)])
    let id = connection.lastInsertedRow
    let insert = try prepare("INSERT INTO checkpoint_sessions (checkpoint_id, position, session_id, seq, hash) VALUES (?, ?, ?, ?, ?)")
    for (position, entry) in entries.enumerated() {
      try execute(insert, [.integer(id), .integer(Int64(position)), .text(entry.session.rawValue), .integer(Int64(entry.seq)), .blob(entry.hash)])
    }
  }

  /// The leaves of the recorded checkpoint with this root, in their order; `nil` when the
  /// store holds no checkpoint with it.
  func recordedEntries(root: [UInt8]) throws(StoreError) -> [CheckpointEntry]? {
    let find = try prepare("SELECT id FROM checkpoints WHERE root_hash = ? ORDER BY id LIMIT 1")
    defer { find.reset() }
    try bind(find, [.blob(root)])
    guard try step(find) else { return nil }
    let id = find.int64(0)
    let leaves = try prepare("SELECT session_id, seq, hash FROM checkpoint_sessions WHERE checkpoint_id = ? ORDER BY position")
    defer { leaves.reset() }
    try bind(leaves, [.integer(id)])
    var entries: [CheckpointEntry] = []
    while try step(leaves) {
      entries.append(CheckpointEntry(session: try Self.storedSessionID(leaves.text(0)), seq: leaves.int(1), hash: leaves.blob(2)))
    }
    return entries
  }

  /// The chain value stored with an event, if the event is there.
  func storedHash(of session: SessionID, seq: Int) throws(StoreError) -> [UInt8]? {
    let statement = try prepare("SELECT hash FROM events WHERE session_id = ? AND seq = ?")
    defer { statement.reset() }
    try bind(statement, [.text(session.rawValue), .integer(Int64(seq))])
    guard try step(statement) else { return nil }
    return statement.blob(0)
  }
}
