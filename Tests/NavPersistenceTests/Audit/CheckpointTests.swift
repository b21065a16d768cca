import Foundation
@_spi(Internals) import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import Testing

/// Checkpoints against the store's own owner: each tampering a hash chain alone can miss is
/// found against a signed checkpoint, naming the session and seq, and a forged or foreign
/// checkpoint is refused.
@Suite struct CheckpointTests {
  let folder: TemporaryFolder
  let path: String
  let signer: NoteSigner
  let time = Timestamp(millisecondsSince1970: 1_795_000_100_000)

  init() throws {
    folder = try TemporaryFolder()
    path = folder.path("c.sqlite")
    signer = try NoteSigner(name: "auditor")
    let store = try SessionStore(path: path, options: StoreOptions(snapshotInterval: 4))
    for session in ["a", "b", "c"] {
      try store.append(event(session, .start(.stack(stack("R+home")))))
      for index in 0..<6 {
        try store.append(event(session, .push(.string("\(session)\(index)")), offset: Int64(index + 1)))
      }
    }
  }

  var store: SessionStore { get throws { try SessionStore(path: path) } }

  func checkpoint() throws -> SignedNote { try store.checkpoint(signedBy: signer, at: time) }

  /// Changes the file as someone with write access would: SQL, the append-only triggers dropped.
  func tamper(_ sql: String) throws {
    let connection = try SQLiteConnection(path: path, mode: .readWrite(create: false))
    try connection.execute(
      """
      DROP TRIGGER IF EXISTS events_are_append_only_update; DROP TRIGGER IF EXISTS events_are_append_only_delete;
      DROP TRIGGER IF EXISTS checkpoint_sessions_are_append_only_update; DROP TRIGGER IF EXISTS checkpoint_sessions_are_append_only_delete;
      DROP TRIGGER IF EXISTS checkpoints_are_append_only_delete; PRAGMA foreign_keys = OFF;
      """)
    try connection.execute(sql)
  }

  /// The audit's findings that are not intact, as "session@seq: status".
  func problems(_ note: SignedNote) throws -> [String] {
    var found: [String] = []
    try store.audit(against: note, key: signer.verifier) { finding in
      if !finding.isIntact { found.append("\(finding.entry.session)@\(finding.entry.seq): \(finding.status)") }
    }
    return found
  }

  /// Cuts a session's last events and fixes every column of its row the events decide (count,
  /// head, duration, last time, depth), so the chain alone holds.
  func truncate(_ session: String, to seq: Int) throws {
    try tamper(
      Self.truncation(session, to: seq, depth: try store.state(of: sessionID(session), at: seq).state.visibleDepth))
  }

  static func truncation(_ session: String, to seq: Int, depth: Int) -> String {
    """
    DELETE FROM snapshots WHERE session_id = '\(session)' AND seq > \(seq);
    DELETE FROM events WHERE session_id = '\(session)' AND seq > \(seq);
    UPDATE sessions SET event_count = \(seq),
      head_hash = (SELECT hash FROM events WHERE session_id = '\(session)' AND seq = \(seq)),
      duration_ms = (SELECT max(at) - min(at) FROM events WHERE session_id = '\(session)'),
      foreground_ms = (SELECT max(at) - min(at) FROM events WHERE session_id = '\(session)'),
      last_at = (SELECT max(at) FROM events WHERE session_id = '\(session)'), depth = \(depth) WHERE id = '\(session)';
    """
  }

  @Test func anIntactStoreAuditsCleanAndLaterEventsExtendTheCheckpoint() throws {
    let note = try checkpoint()
    #expect(try problems(note).isEmpty)
    try store.append(event("a", .pop(), offset: 100))
    try store.append(event("d", .start(.stack(stack("R")))))
    var later: [String: Int] = [:]
    let audit = try store.audit(against: note, key: signer.verifier) { finding in
      if case .intact(let count) = finding.status { later[finding.entry.session.rawValue] = count }
    }
    #expect(audit.sessions == 3 && audit.problems == 0)
    #expect(later == ["a": 1, "b": 0, "c": 0])
  }

  @Test func theTextIsDeterministicForTheSameStateAndTime() throws {
    let first = try checkpoint()
    let second = try checkpoint()
    #expect(first.text == second.text)
    #expect(first == second)  // swift-crypto signs Ed25519 deterministically
    let parsed = try Checkpoint(text: first.text)
    #expect(parsed.sessionCount == 3 && parsed.eventCount == 21 && parsed.time == time)
    #expect(parsed.origin == Checkpoint.origin(ofStore: try store.identity()))
  }

  @Test func aTruncationWithItsCountersFixedIsFoundOnlyAgainstACheckpoint() throws {
    #expect(
      try store.state(of: sessionID("b"), at: 4).state.visibleDepth == 4, "the depth the table's truncation writes")
    let note = try checkpoint()
    try truncate("b", to: 4)
    #expect(try store.verify().allSatisfy(\.isIntact), "the chain alone cannot see a clean cut")
    #expect(try problems(note) == ["b@7: truncated(events: 4)"])
  }

  @Test func aWholeChainRewrittenConsistentlyIsFoundOnlyAgainstACheckpoint() throws {
    let note = try checkpoint()
    try tamper(
      "DELETE FROM snapshots WHERE session_id = 'c'; DELETE FROM events WHERE session_id = 'c'; DELETE FROM sessions WHERE id = 'c';"
    )
    let rewriter = try SessionStore(path: path)
    try rewriter.append(event("c", .start(.stack(stack("R+home")))))
    for index in 0..<6 { try rewriter.append(event("c", .push(.string("forged\(index)")), offset: Int64(index + 1))) }
    #expect(try store.verify().allSatisfy(\.isIntact), "a chain recomputed whole is consistent")
    #expect(try problems(note) == ["c@7: rewritten"])
  }

  @Test func aVanishedSessionIsFoundOnlyAgainstACheckpoint() throws {
    let note = try checkpoint()
    try tamper(
      "DELETE FROM snapshots WHERE session_id = 'a'; DELETE FROM events WHERE session_id = 'a'; DELETE FROM sessions WHERE id = 'a';"
    )
    #expect(try store.verify().allSatisfy(\.isIntact))
    #expect(try problems(note) == ["a@7: vanished"])
  }

  @Test func aChangedEventIsFoundByTheChainBesideTheCheckpoint() throws {
    let note = try checkpoint()
    try tamper("UPDATE events SET op = replace(op, 'b2', 'b9') WHERE session_id = 'b' AND seq = 4")
    #expect(try store.verify().first { !$0.isIntact }?.failure?.seq == 4)
    #expect(try problems(note).isEmpty, "the stored chain value at seq 7 is unchanged; the chain check finds the edit")
  }

  @Test func aNoteSignedByAnotherKeyOrEditedIsRefused() throws {
    let note = try checkpoint()
    let forger = try NoteSigner(name: "auditor")
    let forged = try SignedNote(text: note.text, signedBy: forger)
    #expect(throws: StoreError.self) { try store.audit(against: forged, key: signer.verifier) }
    let edited = note.serialized.replacingOccurrences(of: "\n3\n", with: "\n2\n")
    #expect(throws: StoreError.self) { try store.audit(against: try SignedNote(parsing: edited), key: signer.verifier) }
  }

  @Test func aCheckpointOfAnotherStoreIsRefused() throws {
    let otherPath = folder.path("other.sqlite")
    let other = try SessionStore(path: otherPath)
    try other.append(event("a", .start(.stack(stack("R+home")))))
    let foreign = try other.checkpoint(signedBy: signer, at: time)
    #expect(
      throws: StoreError.checkpoint(
        .otherStore(
          checkpoint: try Checkpoint(text: foreign.text).origin, store: Checkpoint.origin(ofStore: try store.identity())
        ))
    ) {
      try store.audit(against: foreign, key: signer.verifier)
    }
  }

  @Test func anAlteredOrRemovedRecordOfTheCheckpointIsRefused() throws {
    let note = try checkpoint()
    let root = HashChain.hex(try Checkpoint(text: note.text).rootHash)
    try tamper("UPDATE checkpoint_sessions SET seq = 5 WHERE session_id = 'b'")
    #expect(throws: StoreError.checkpoint(.recordAltered(root: root))) {
      try store.audit(against: note, key: signer.verifier)
    }
    try tamper("DELETE FROM checkpoint_sessions; DELETE FROM checkpoints;")
    #expect(throws: StoreError.checkpoint(.unrecorded(root: root))) {
      try store.audit(against: note, key: signer.verifier)
    }
  }

  @Test func everySessionsProofVerifiesWithoutTheStoreAndNoAlteredOneDoes() throws {
    let note = try checkpoint()
    for session in ["a", "b", "c"] {
      let proof = try store.proof(of: sessionID(session), in: note)
      let read = try SessionProof(json: proof.json)
      #expect(read == proof)
      #expect(try read.verify(with: signer.verifier).rootHash == (try Checkpoint(text: note.text)).rootHash)
      var wrongSeq = read
      wrongSeq.entry.seq += 1
      #expect(throws: CheckpointError.self) { try wrongSeq.verify(with: signer.verifier) }
      var wrongIndex = read
      wrongIndex.index = (read.index + 1) % read.size
      #expect(throws: CheckpointError.self) { try wrongIndex.verify(with: signer.verifier) }
      #expect(throws: CheckpointError.self) { try read.verify(with: try NoteSigner(name: "auditor").verifier) }
    }
    #expect(throws: StoreError.checkpoint(.notInCheckpoint(sessionID("zzz")))) {
      try store.proof(of: sessionID("zzz"), in: note)
    }
  }

  /// Every tampering of `TamperingTests`, and those the chain alone cannot see: each is found by
  /// the chain and the checkpoint together (what `navstore verify --checkpoint` runs), and the
  /// last three only with the checkpoint.
  static let tamperings: [(name: String, sql: String, chainAloneFinds: Bool)] = [
    (
      "a changed byte of an operation",
      "UPDATE events SET op = replace(op, 'b2', 'b9') WHERE session_id = 'b' AND seq = 4", true
    ),
    ("a changed time", "UPDATE events SET at = at + 1 WHERE session_id = 'b' AND seq = 3", true),
    ("a deleted event", "DELETE FROM events WHERE session_id = 'b' AND seq = 5", true),
    (
      "two swapped events",
      "UPDATE events SET seq = 1000 WHERE session_id = 'b' AND seq = 5; UPDATE events SET seq = 5 WHERE session_id = 'b' AND seq = 6; UPDATE events SET seq = 6 WHERE session_id = 'b' AND seq = 1000;",
      true
    ),
    (
      "the last event removed",
      "DELETE FROM snapshots WHERE session_id = 'b' AND seq = 7; DELETE FROM events WHERE session_id = 'b' AND seq = 7",
      true
    ),
    (
      "a changed snapshot",
      "UPDATE snapshots SET state = replace(state, 'home', 'away') WHERE session_id = 'b' AND seq = 4", true
    ),
    ("a session row emptied", "UPDATE sessions SET event_count = 0 WHERE id = 'b'", true),
    ("a session's duration changed", "UPDATE sessions SET duration_ms = duration_ms + 1 WHERE id = 'b'", true),
    ("a session's clock jumps changed", "UPDATE sessions SET clock_jumps = 1 WHERE id = 'b'", true),
    ("a session's foreground time changed", "UPDATE sessions SET foreground_ms = 0 WHERE id = 'b'", true),
    ("a session marked ended", "UPDATE sessions SET phase = 'ended' WHERE id = 'b'", true),
    ("a truncation with its counters fixed", truncation("b", to: 4, depth: 4), false),
    (
      "a vanished session",
      "DELETE FROM snapshots WHERE session_id = 'b'; DELETE FROM events WHERE session_id = 'b'; DELETE FROM sessions WHERE id = 'b';",
      false
    ),
  ]

  @Test(arguments: tamperings.indices) func eachTamperingIsFoundAgainstACheckpoint(_ index: Int) throws {
    let tampering = Self.tamperings[index]
    let note = try checkpoint()
    try tamper(tampering.sql)
    let chainFailures = try store.verify().filter { !$0.isIntact }.map(\.session.rawValue)
    let auditProblems = try problems(note)
    #expect(
      chainFailures.isEmpty != tampering.chainAloneFinds,
      "\(tampering.name): the chain alone \(tampering.chainAloneFinds ? "finds" : "cannot find") it")
    #expect(!chainFailures.isEmpty || !auditProblems.isEmpty, "\(tampering.name) is found with the checkpoint")
    #expect(
      (chainFailures + auditProblems.map { String($0.prefix(1)) }).allSatisfy { $0 == "b" },
      "\(tampering.name): only session b is named")
  }

  @Test func aCheckpointIsRefusedWhenASessionsCountersDisagreeWithItsEvents() throws {
    try tamper("UPDATE sessions SET head_hash = zeroblob(32) WHERE id = 'c'")
    #expect(throws: StoreError.self) { try checkpoint() }
    try tamper(
      "UPDATE sessions SET head_hash = (SELECT hash FROM events WHERE session_id = 'c' AND seq = 7), event_count = 9 WHERE id = 'c'"
    )
    #expect(throws: StoreError.self) { try checkpoint() }
  }

  @Test(arguments: ["+3", "03", "-0", " 3", "3 "])
  func aCheckpointWithACountNotWrittenAsNavStoreWritesItIsRefused(_ count: String) throws {
    let text = try checkpoint().text.replacingOccurrences(of: "\n3\n", with: "\n\(count)\n")
    #expect(throws: CheckpointError.self) { try Checkpoint(text: text) }
  }

  @Test func theCheckpointTablesAreAppendOnly() throws {
    _ = try checkpoint()
    let connection = try SQLiteConnection(path: path, mode: .readWrite(create: false))
    #expect(throws: SQLiteError.self) { try connection.execute("DELETE FROM checkpoints") }
    #expect(throws: SQLiteError.self) { try connection.execute("UPDATE checkpoint_sessions SET seq = 1") }
  }
}

/// A store that reached schema 3 before `0003_checkpoints.sql` was edited kept an immediate key
/// from each leaf to its checkpoint, which the checkpoint's streaming (leaves first) breaks;
/// schema 14 rebuilds the table, keeping its rows.
@Suite struct CheckpointLeavesMigrationTests {
  @Test func aStoreWithTheImmediateKeyCheckpointsAfterMigrating() throws {
    let folder = try TemporaryFolder()
    let path = folder.path("early.sqlite")
    let signer = try NoteSigner(name: "auditor")
    let time = Timestamp(millisecondsSince1970: 1_795_000_100_000)
    let earlier: SignedNote
    do {
      let store = try SessionStore(path: path)
      try store.append(event("a", .start(.stack(stack("R+home")))))
      earlier = try store.checkpoint(signedBy: signer, at: time)
      try store.append(event("b", .start(.stack(stack("R+home")))))
    }
    // The table as the first form of 0003 made it, its rows kept, the store back at schema 13
    // (without the columns of the schemas after it).
    let connection = try SQLiteConnection(path: path, mode: .readWrite(create: false))
    try connection.execute(schema16Undone)
    try connection.execute(
      """
      DROP TRIGGER checkpoint_sessions_are_append_only_update;
      DROP TRIGGER checkpoint_sessions_are_append_only_delete;
      CREATE TABLE early (
        checkpoint_id INTEGER NOT NULL REFERENCES checkpoints (id),
        position INTEGER NOT NULL CHECK (position >= 0), session_id TEXT NOT NULL,
        seq INTEGER NOT NULL CHECK (seq >= 1), hash BLOB NOT NULL CHECK (length(hash) = 32),
        PRIMARY KEY (checkpoint_id, position)) STRICT, WITHOUT ROWID;
      INSERT INTO early SELECT * FROM checkpoint_sessions;
      DROP TABLE checkpoint_sessions;
      ALTER TABLE early RENAME TO checkpoint_sessions;
      CREATE TRIGGER checkpoint_sessions_are_append_only_update BEFORE UPDATE ON checkpoint_sessions
      BEGIN SELECT RAISE(ABORT, 'checkpoints are append-only'); END;
      CREATE TRIGGER checkpoint_sessions_are_append_only_delete BEFORE DELETE ON checkpoint_sessions
      BEGIN SELECT RAISE(ABORT, 'checkpoints are append-only'); END;
      ALTER TABLE sessions DROP COLUMN launch;
      ALTER TABLE sessions DROP COLUMN launch_reason;
      ALTER TABLE sessions DROP COLUMN dropped_routes;
      DELETE FROM schema_migrations WHERE version >= 14;
      PRAGMA user_version = 13;
      """)
    #expect(
      try connection.text("SELECT sql FROM sqlite_master WHERE name = 'checkpoint_sessions'")?.contains("DEFERRED")
        == false)
    let store = try SessionStore(path: path)
    #expect(try store.schemaVersion() == SessionStore.latestSchemaVersion)
    let next = try store.checkpoint(signedBy: signer, at: time)
    var findings = 0
    for note in [earlier, next] {
      try store.audit(against: note, key: signer.verifier) { finding in
        findings += 1
        #expect(finding.isIntact, "\(finding.entry.session)")
      }
    }
    #expect(findings == 3, "the earlier checkpoint's leaf and the new one's two")
    // The rebuilt table is append-only again.
    #expect(throws: SQLiteError.self) {
      try SQLiteConnection(path: path, mode: .readWrite(create: false)).execute("DELETE FROM checkpoint_sessions")
    }
  }
}
