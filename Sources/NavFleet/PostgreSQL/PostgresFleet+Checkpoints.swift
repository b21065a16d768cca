#if Collector
@_spi(Internals) import NavArchive
import NavCore
@_spi(Internals) import NavHistory
import PostgresNIO

/// Signed checkpoints of one app's sessions in the database (`migrations/postgresql/0002`), made
/// and audited as a store file's are: the same leaves, the same tree, the same rule for what an
/// audit finds (`CheckpointFinding.judging`). Leaves stream through in id order, so a checkpoint's
/// memory grows with the tree's height, not with the number of sessions.
extension PostgresFleet {
  /// The origin line of `app`'s checkpoints in the database with `identity`: the database and
  /// the app, so that a checkpoint of one is never taken for another's.
  static func checkpointOrigin(identity: String, app: AppName) -> String {
    Checkpoint.origin(ofStore: identity) + "/" + app.rawValue
  }

  /// Writes a checkpoint of every session of `app` with events, in id order, signed by
  /// `signer`, at `time`, and keeps it with its leaves; in one transaction that sees one moment
  /// of the database (uploads meanwhile are for the next checkpoint).
  package func checkpoint(app: AppName, signedBy signer: NoteSigner, at time: Timestamp) async throws(FleetError)
    -> SignedNote
  {
    let logger = logger
    return try await transaction(timeout: .seconds(600)) { connection in
      try await connection.run("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ", logger: logger)
      let origin = Self.checkpointOrigin(identity: try await Self.identity(on: connection, logger: logger), app: app)
      var id: Int64 = 1
      for try await next in try await connection.query(
        "SELECT coalesce(max(id), 0) + 1 FROM checkpoints WHERE app = \(app.rawValue)", logger: logger
      ).decode(Int64.self) {
        id = next
      }
      // Each session's counters and the chain value stored with the event they name, checked and
      // hashed by the store file's procedure; the leaves are then kept from the same snapshot, in
      // the same order.
      var making = CheckpointMaking()
      let sessions = try await connection.query(
        """
        SELECT s.id, s.event_count, s.head_hash, e.hash FROM sessions s
          LEFT JOIN events e ON e.app = s.app AND e.session_id = s.id AND e.month = s.month AND e.seq = s.event_count
          WHERE s.app = \(app.rawValue) AND s.event_count > 0
          ORDER BY s.id
        """, logger: logger)
      try await readToTheEnd(sessions.decode((String, Int64, ByteBuffer?, ByteBuffer?).self)) { row in
        _ = try making.append(
          session: try SessionRecord.sessionID(row.0), seq: Int(row.1), rowHash: row.2?.bytes, eventHash: row.3?.bytes)
      }
      try await connection.run(
        """
        INSERT INTO checkpoint_sessions (app, checkpoint_id, position, session_id, seq, hash)
          SELECT app, \(id), row_number() OVER (ORDER BY id) - 1, id, event_count, head_hash FROM sessions
            WHERE app = \(app.rawValue) AND event_count > 0
        """, logger: logger)
      let (checkpoint, note) = try making.signed(origin: origin, at: time, by: signer)
      try await connection.run(
        """
        INSERT INTO checkpoints (app, id, made_at, root_hash, note)
          VALUES (\(app.rawValue), \(id), \(time.millisecondsSince1970), \(ByteBuffer(bytes: checkpoint.rootHash)),
            \(note.serialized))
        """, logger: logger)
      return note
    }
  }

  /// Audits `app`'s sessions against a checkpoint, as a store file's audit does: the note's
  /// signature by `key`, that it is this database's and this app's, that the database's record
  /// of it gives the signed root; then `each` sees what the database holds of every session it
  /// names, in the checkpoint's order. Events appended since extend it; sessions begun since are
  /// not its concern. Whether the events before each checkpointed seq still give its chain value
  /// is `verify`'s to check: run both, as `navstore verify --checkpoint` does.
  package func audit(
    app: AppName, against note: SignedNote, key: NoteVerifier,
    each: @escaping @Sendable (CheckpointFinding) -> Void = { _ in }
  ) async throws(FleetError) -> CheckpointAudit {
    let checkpoint = try FleetError.ruling(Checkpoint.verified(note, key: key))
    let logger = logger
    return try await transaction(timeout: .seconds(600)) { connection in
      try await connection.run("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: logger)
      let id = try await Self.checkedRecord(of: checkpoint, app: app, on: connection, logger: logger)
      var audit = CheckpointAudit(checkpoint: checkpoint)
      let sessions = try await connection.query(
        """
        SELECT c.session_id, c.seq, c.hash,
            (SELECT max(e.seq) FROM events e WHERE e.app = c.app AND e.session_id = c.session_id),
            (SELECT e.hash FROM events e WHERE e.app = c.app AND e.session_id = c.session_id AND e.seq = c.seq LIMIT 1),
            t.forgotten_at, t.last_seq, t.head_hash
          FROM checkpoint_sessions c
          LEFT JOIN tombstones t ON t.app = c.app AND t.session_id = c.session_id
          WHERE c.app = \(app.rawValue) AND c.checkpoint_id = \(id)
          ORDER BY c.position
        """, logger: logger)
      try await readToTheEnd(
        sessions.decode((String, Int64, ByteBuffer, Int64?, ByteBuffer?, Int64?, Int64?, ByteBuffer?).self)
      ) { row in
        let session = try SessionRecord.sessionID(row.0)
        let entry = CheckpointEntry(session: session, seq: Int(row.1), hash: row.2.bytes)
        var tombstone: Tombstone?
        if let forgotten = row.5, let lastSeq = row.6, let hash = row.7 {
          tombstone = Tombstone(
            session: session, forgottenAt: Timestamp(millisecondsSince1970: forgotten), lastSeq: Int(lastSeq),
            headHash: hash.bytes)
        }
        let finding = CheckpointFinding(
          entry: entry,
          status: CheckpointFinding.judging(
            entry, lastSeq: row.3.map(Int.init), hashAtSeq: row.4?.bytes, tombstone: tombstone,
            checkpointMadeAt: checkpoint.time))
        audit.add(finding)
        each(finding)
      }
      return audit
    }
  }

  /// The proof that `session` is in `app`'s checkpoint `note`, made as a store file's is: its
  /// entry and the Merkle path to the root, from the database's record of the checkpoint once
  /// the record gives the signed root.
  package func proof(of session: SessionID, app: AppName, in note: SignedNote) async throws(FleetError) -> SessionProof
  {
    // The note is read before the database is asked anything.
    let started = try FleetError.ruling(InclusionProofMaking(of: session, in: note))
    let logger = logger
    return try await transaction(timeout: .seconds(600)) { connection in
      try await connection.run("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: logger)
      var making = started
      let id = try await Self.checkedRecord(of: making.checkpoint, app: app, on: connection, logger: logger) {
        entry, position in making.look(at: entry, position: position)
      }
      try making.startPath()
      try await Self.forEachLeaf(of: id, app: app, on: connection, logger: logger) { entry, _ in making.append(entry) }
      return try making.proof()
    }
  }

  /// The id of `app`'s record of `checkpoint`, once it is known to be this database's and this
  /// app's and its leaves give the signed root (`RecordedCheckpoint`); `each` sees every leaf on
  /// the way.
  private static func checkedRecord(
    of checkpoint: Checkpoint, app: AppName, on connection: PostgresConnection, logger: Logger,
    isolation: isolated (any Actor)? = #isolation, each: (CheckpointEntry, Int) -> Void = { _, _ in }
  ) async throws -> Int64 {
    var record = try RecordedCheckpoint(
      of: checkpoint,
      inStoreWithOrigin: checkpointOrigin(identity: try await identity(on: connection, logger: logger), app: app))
    var found: Int64?
    for try await id in try await connection.query(
      """
      SELECT id FROM checkpoints WHERE app = \(app.rawValue) AND root_hash = \(ByteBuffer(bytes: checkpoint.rootHash))
        ORDER BY id LIMIT 1
      """, logger: logger
    ).decode(Int64.self) {
      found = id
    }
    guard let id = found else { throw record.unrecorded }
    try await forEachLeaf(of: id, app: app, on: connection, logger: logger) { entry, position throws(HistoryError) in
      try record.append(entry, at: position)
      each(entry, position)
    }
    try record.finish()
    return id
  }

  /// The database's identity, made once by its migration.
  private static func identity(on connection: PostgresConnection, logger: Logger) async throws -> String {
    var identity: String?
    for try await id in try await connection.query("SELECT id FROM fleet_identity", logger: logger).decode(String.self)
    {
      identity = id
    }
    guard let identity else { throw HistoryError.checkpoint(.identityMissing) }
    return identity
  }

  /// Calls `body` with every leaf of a recorded checkpoint and its position, in order; the rows
  /// are read to the end whatever `body` throws.
  private static func forEachLeaf(
    of checkpoint: Int64, app: AppName, on connection: PostgresConnection, logger: Logger,
    isolation: isolated (any Actor)? = #isolation, _ body: (CheckpointEntry, Int) throws(HistoryError) -> Void
  ) async throws {
    let leaves = try await connection.query(
      """
      SELECT session_id, seq, hash, position FROM checkpoint_sessions
        WHERE app = \(app.rawValue) AND checkpoint_id = \(checkpoint) ORDER BY position
      """, logger: logger)
    try await readToTheEnd(leaves.decode((String, Int64, ByteBuffer, Int64).self)) { row in
      try body(
        CheckpointEntry(session: try SessionRecord.sessionID(row.0), seq: Int(row.1), hash: row.2.bytes), Int(row.3))
    }
  }
}
#endif
