@_spi(Internals) import NavArchive
import NavCore
@_spi(Internals) import NavHistory
import NavPersistence

/// The checkpoint tables of schema 3 (`migrations/0003_checkpoints.sql`). Sessions and leaves
/// stream through these in id order, one row at a time: the memory of a checkpoint, an audit
/// or a proof grows with the Merkle tree's height, not the number of sessions.
extension StoreEngine {
  /// The store's identity, made once when the store was created.
  func storeIdentity() throws(StoreError) -> String {
    let statement = try prepare("SELECT id FROM store_identity")
    defer { statement.reset() }
    guard try step(statement) else { throw StoreError.checkpoint(.identityMissing) }
    return statement.text(0)
  }

  /// Writes a checkpoint of every session with events, in id order (SQLite's byte order of the
  /// ids), signed by `signer`, and keeps it with its leaves; in the caller's write transaction.
  func writeCheckpoint(signedBy signer: NoteSigner, at time: Timestamp) throws(StoreError) -> SignedNote {
    let id =
      try sql { () throws(SQLiteError) in try connection.integer("SELECT coalesce(max(id), 0) + 1 FROM checkpoints") }
      ?? 1
    // Each session's counters, and the chain value stored with the event they name: a
    // checkpoint signs what the events say, never counters that disagree with them.
    let sessions = try prepare(
      """
      SELECT s.id, s.event_count, s.head_hash, e.hash FROM sessions s
      LEFT JOIN events e ON e.session_id = s.id AND e.seq = s.event_count
      WHERE s.event_count > 0 ORDER BY s.id
      """)
    defer { sessions.reset() }
    let insert = try prepare(
      "INSERT INTO checkpoint_sessions (checkpoint_id, position, session_id, seq, hash) VALUES (?, ?, ?, ?, ?)")
    var making = CheckpointMaking()
    while try step(sessions) {
      let position = making.count
      let session = try sessions.sessionID(0)
      let entry = try StoreError.ruling(
        making.append(
          session: session, seq: sessions.int(1), rowHash: sessions.isNull(2) ? nil : sessions.blob(2),
          eventHash: sessions.isNull(3) ? nil : sessions.blob(3)))
      try execute(
        insert,
        [
          .integer(id), .integer(Int64(position)), .text(entry.session.rawValue), .integer(Int64(entry.seq)),
          .blob(entry.hash),
        ])
    }
    let origin = Checkpoint.origin(ofStore: try storeIdentity())
    let (checkpoint, note) = try StoreError.ruling(making.signed(origin: origin, at: time, by: signer))
    try execute(
      try prepare("INSERT INTO checkpoints (id, made_at, root_hash, note) VALUES (?, ?, ?, ?)"),
      [.integer(id), .integer(time.millisecondsSince1970), .blob(checkpoint.rootHash), .text(note.serialized)])
    return note
  }

  /// The store's record of `checkpoint`, once it is known to be this store's and to give the
  /// signed root: its id, for `forEachRecordedEntry`. `each` sees every leaf on the way, for a
  /// caller that can use them before the root is known to hold (a proof finding its entry).
  func recordedCheckpoint(
    _ checkpoint: Checkpoint, each: (CheckpointEntry, Int) -> Void = { _, _ in }
  ) throws(StoreError) -> Int64 {
    let origin = Checkpoint.origin(ofStore: try storeIdentity())
    var record = try StoreError.ruling(RecordedCheckpoint(of: checkpoint, inStoreWithOrigin: origin))
    let find = try prepare("SELECT id FROM checkpoints WHERE root_hash = ? ORDER BY id LIMIT 1")
    defer { find.reset() }
    try bind(find, [.blob(checkpoint.rootHash)])
    guard try step(find) else { throw StoreError(record.unrecorded) }
    let id = find.int64(0)
    try forEachRecordedEntry(of: id) { entry, position throws(StoreError) in
      try StoreError.ruling(record.append(entry, at: position))
      each(entry, position)
    }
    try StoreError.ruling(record.finish())
    return id
  }

  /// Calls `body` with every leaf of a recorded checkpoint and its position, in order.
  func forEachRecordedEntry(of checkpoint: Int64, _ body: (CheckpointEntry, Int) throws(StoreError) -> Void)
    throws(StoreError)
  {
    let leaves = try prepare(
      "SELECT session_id, seq, hash, position FROM checkpoint_sessions WHERE checkpoint_id = ? ORDER BY position")
    defer { leaves.reset() }
    try bind(leaves, [.integer(checkpoint)])
    while try step(leaves) {
      let entry = CheckpointEntry(
        session: try leaves.sessionID(0), seq: leaves.int(1), hash: leaves.blob(2))
      try body(entry, leaves.int(3))
    }
  }

  /// The chain value stored with an event, if the event is there.
  func storedHash(of session: SessionID, seq: Int) throws(StoreError) -> [UInt8]? {
    let statement = try prepare("SELECT hash FROM events WHERE session_id = ? AND seq = ?")
    defer { statement.reset() }
    try bind(statement, [.text(session.rawValue), .integer(Int64(seq))])
    guard try step(statement) else { return nil }
    return statement.blob(0)
  }

  /// What the store holds now of a session the checkpoint `made` at that time names
  /// (`CheckpointFinding.judging`).
  func status(of entry: CheckpointEntry, checkpointMadeAt made: Timestamp) throws(StoreError)
    -> CheckpointFinding.Status
  {
    let last = try prepare("SELECT max(seq) FROM events WHERE session_id = ?")
    defer { last.reset() }
    try bind(last, [.text(entry.session.rawValue)])
    let lastSeq = try step(last) && !last.isNull(0) ? last.int(0) : nil
    return CheckpointFinding.judging(
      entry, lastSeq: lastSeq,
      hashAtSeq: lastSeq.map { $0 >= entry.seq } == true ? try storedHash(of: entry.session, seq: entry.seq) : nil,
      tombstone: lastSeq == nil ? try tombstone(of: entry.session) : nil, checkpointMadeAt: made)
  }
}
