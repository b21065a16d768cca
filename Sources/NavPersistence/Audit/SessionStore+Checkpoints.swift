import NavCore

/// Signed checkpoints of the whole store, audits against them, and proofs of one session.
extension SessionStore {
  /// The store's identity, made at random when it was created; checkpoints name it.
  public func identity() throws(StoreError) -> String {
    try read { engine throws(StoreError) in try engine.storeIdentity() }
  }

  /// Writes a checkpoint of every session, signed by `signer`, at `time`, and keeps it in the
  /// store. The text is the same for the same store and time; so is the note, with an Ed25519
  /// signer that signs deterministically (swift-crypto's does; Apple's CryptoKit randomizes,
  /// and either signature verifies).
  public func checkpoint(signedBy signer: NoteSigner, at time: Timestamp) throws(StoreError) -> SignedNote {
    try write { engine throws(StoreError) in
      let identity = try engine.storeIdentity()
      let (entries, events) = try engine.checkpointEntries()
      let checkpoint = Checkpoint(
        origin: Checkpoint.origin(ofStore: identity), sessionCount: entries.count,
        rootHash: MerkleTree.root(ofLeafHashes: entries.map(\.leafHash)), eventCount: events, time: time)
      let note: SignedNote
      do throws(NoteError) {
        note = try SignedNote(text: checkpoint.text, signedBy: signer)
      } catch {
        throw .checkpoint(.signature(error))
      }
      try engine.record(checkpoint, note: note, entries: entries)
      return note
    }
  }

  /// Audits the store against a checkpoint: checks the note's signature by `key`, that the
  /// checkpoint is this store's and that the store's record of it gives the signed root, then
  /// calls `each` with what the store holds of every session the checkpoint names. Sessions
  /// begun since are not its concern, nor events appended since (the chain extends it).
  /// `each`'s errors come back as `.caller`.
  @discardableResult
  public func audit(
    against note: SignedNote, key: NoteVerifier, each: (CheckpointFinding) throws -> Void = { _ in }
  ) throws(StoreError) -> CheckpointAudit {
    let checkpoint = try Self.verifiedCheckpoint(note, key: key)
    return try read { engine throws(StoreError) in
      let entries = try Self.recordedEntries(of: checkpoint, in: engine)
      var audit = CheckpointAudit(checkpoint: checkpoint)
      for entry in entries {
        let finding = CheckpointFinding(entry: entry, status: try engine.status(of: entry))
        audit.add(finding)
        try StoreEngine.callingBack { try each(finding) }
      }
      return audit
    }
  }

  /// The proof that `session` is in the checkpoint `note`: its entry and the Merkle path from
  /// it to the root. With the note, it is checked without the store (`SessionProof.verify`).
  public func proof(of session: SessionID, in note: SignedNote) throws(StoreError) -> SessionProof {
    let checkpoint: Checkpoint
    do {
      checkpoint = try Checkpoint(text: note.text)
    } catch {
      throw .checkpoint(error)
    }
    return try read { engine throws(StoreError) in
      let entries = try Self.recordedEntries(of: checkpoint, in: engine)
      guard let index = entries.firstIndex(where: { $0.session == session }) else {
        throw StoreError.checkpoint(.notInCheckpoint(session))
      }
      let hashes = entries.map(\.leafHash)
      return SessionProof(
        note: note, entry: entries[index], index: index, size: entries.count,
        path: MerkleTree.inclusionProof(of: index, inLeafHashes: hashes) ?? [])
    }
  }

  private static func verifiedCheckpoint(_ note: SignedNote, key: NoteVerifier) throws(StoreError) -> Checkpoint {
    do throws(CheckpointError) {
      do {
        try note.verify(with: key)
      } catch {
        throw CheckpointError.signature(error)
      }
      return try Checkpoint(text: note.text)
    } catch {
      throw .checkpoint(error)
    }
  }

  /// The store's record of the checkpoint's leaves, once it is known to be this store's and
  /// to give the signed root.
  private static func recordedEntries(of checkpoint: Checkpoint, in engine: StoreEngine) throws(StoreError) -> [CheckpointEntry] {
    let origin = Checkpoint.origin(ofStore: try engine.storeIdentity())
    guard checkpoint.origin == origin else {
      throw .checkpoint(.otherStore(checkpoint: checkpoint.origin, store: origin))
    }
    let root = HashChain.hex(checkpoint.rootHash)
    guard let entries = try engine.recordedEntries(root: checkpoint.rootHash) else { throw .checkpoint(.unrecorded(root: root)) }
    guard entries.count == checkpoint.sessionCount, MerkleTree.root(ofLeafHashes: entries.map(\.leafHash)) == checkpoint.rootHash else {
      throw .checkpoint(.recordAltered(root: root))
    }
    return entries
  }
}

extension StoreEngine {
  /// What the store holds now of a session a checkpoint names.
  func status(of entry: CheckpointEntry) throws(StoreError) -> CheckpointFinding.Status {
    if let forgotten = try forgottenAt(entry.session) { return .forgotten(at: forgotten) }
    let last = try prepare("SELECT max(seq) FROM events WHERE session_id = ?")
    defer { last.reset() }
    try bind(last, [.text(entry.session.rawValue)])
    guard try step(last), !last.isNull(0) else { return .vanished }
    let lastSeq = last.int(0)
    guard lastSeq >= entry.seq else { return .truncated(events: lastSeq) }
    guard try storedHash(of: entry.session, seq: entry.seq) == entry.hash else { return .rewritten }
    return .intact(later: lastSeq - entry.seq)
  }
}
