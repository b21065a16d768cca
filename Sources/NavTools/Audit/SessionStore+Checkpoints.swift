@_spi(Internals) import NavArchive
import NavCore
@_spi(Internals) import NavHistory
import NavPersistence

/// Signed checkpoints of the whole store, audits against them, and proofs of one session.
extension SessionStore {
  /// The store's identity, made at random when it was created; checkpoints name it.
  package func identity() throws(StoreError) -> String {
    try withReadTransaction { engine throws(StoreError) in try engine.storeIdentity() }
  }

  /// Writes a checkpoint of every session, signed by `signer`, at `time`, and keeps it in the
  /// store. The text is the same for the same store and time; so is the note, with an Ed25519
  /// signer that signs deterministically (swift-crypto's does; Apple's CryptoKit randomizes,
  /// and either signature verifies).
  package func checkpoint(signedBy signer: NoteSigner, at time: Timestamp) throws(StoreError) -> SignedNote {
    try withWriteTransaction { engine throws(StoreError) in try engine.writeCheckpoint(signedBy: signer, at: time) }
  }

  /// Audits the store against a checkpoint: checks the note's signature by `key`, that the
  /// checkpoint is this store's and that the store's record of it gives the signed root, then
  /// calls `each` with what the store holds of every session the checkpoint names. Sessions
  /// begun since are not its concern, nor events appended since (the chain extends it).
  /// `each`'s errors come back as `.caller`.
  ///
  /// It compares the chain value stored at each checkpointed seq; that the events before it
  /// still give that value is `verify`'s to check. Run both (`navstore verify --checkpoint`
  /// does), or an edit inside a history that left the stored chain values alone goes unseen.
  @discardableResult
  package func audit(
    against note: SignedNote, key: NoteVerifier, each: (CheckpointFinding) throws -> Void = { _ in }
  ) throws(StoreError) -> CheckpointAudit {
    let checkpoint = try StoreError.ruling(Checkpoint.verified(note, key: key))
    return try withReadTransaction { engine throws(StoreError) in
      let id = try engine.recordedCheckpoint(checkpoint)
      var audit = CheckpointAudit(checkpoint: checkpoint)
      try engine.forEachRecordedEntry(of: id) { entry, _ throws(StoreError) in
        let finding = CheckpointFinding(
          entry: entry, status: try engine.status(of: entry, checkpointMadeAt: checkpoint.time))
        audit.add(finding)
        try StoreEngine.callingBack { try each(finding) }
      }
      return audit
    }
  }

  /// The proof that `session` is in the checkpoint `note`: its entry and the Merkle path from
  /// it to the root. With the note, it is checked without the store (`SessionProof.verify`).
  package func proof(of session: SessionID, in note: SignedNote) throws(StoreError) -> SessionProof {
    var making = try StoreError.ruling(InclusionProofMaking(of: session, in: note))
    return try withReadTransaction { engine throws(StoreError) in
      // The entry is found while the record is checked against the root: one pass fewer.
      let id = try engine.recordedCheckpoint(making.checkpoint) { entry, position in
        making.look(at: entry, position: position)
      }
      try StoreError.ruling(making.startPath())
      try engine.forEachRecordedEntry(of: id) { entry, _ in making.append(entry) }
      return try StoreError.ruling(making.proof())
    }
  }
}
