import NavCore
@_spi(Internals) import NavHistory

/// A store's record of a checkpoint, read back leaf by leaf and believed only once the leaves
/// give the signed root: the one procedure both engines check a checkpoint's record with,
/// before an audit or a proof relies on it.
package struct RecordedCheckpoint {
  /// The signed checkpoint the record is held to.
  package let checkpoint: Checkpoint
  private var tree = MerkleTree.RootBuilder()

  /// Starts checking the record of `checkpoint` in the store whose checkpoints carry `origin`:
  /// a checkpoint of another store is refused here (`.otherStore`).
  package init(of checkpoint: Checkpoint, inStoreWithOrigin origin: String) throws(HistoryError) {
    guard checkpoint.origin == origin else {
      throw .checkpoint(.otherStore(checkpoint: checkpoint.origin, store: origin))
    }
    self.checkpoint = checkpoint
  }

  /// The failure for a store that holds no checkpoint with this root.
  package var unrecorded: HistoryError { .checkpoint(.unrecorded(root: HashChain.hex(checkpoint.rootHash))) }

  /// Takes the recorded leaf at `position`; a gap or a repeat in the positions is an altered
  /// record.
  package mutating func append(_ entry: CheckpointEntry, at position: Int) throws(HistoryError) {
    guard position == tree.count else { throw altered }
    tree.append(entry.leafHash)
  }

  /// Checks, once every leaf is in, that they give the signed count and root.
  package func finish() throws(HistoryError) {
    guard tree.count == checkpoint.sessionCount, tree.root == checkpoint.rootHash else { throw altered }
  }

  private var altered: HistoryError { .checkpoint(.recordAltered(root: HashChain.hex(checkpoint.rootHash))) }
}

/// A session's proof of inclusion, made in two passes over a checkpoint's checked record: the
/// first finds the session's leaf (while `RecordedCheckpoint` checks the record), the second
/// hashes the path to the root. Both engines make a proof with it.
package struct InclusionProofMaking {
  private let session: SessionID
  private let note: SignedNote
  /// The checkpoint `note` states, whose record the passes read.
  package let checkpoint: Checkpoint
  private var found: (entry: CheckpointEntry, index: Int)?
  private var path: MerkleTree.ProofBuilder?

  /// Starts a proof that `session` is in the checkpoint `note` states (`.checkpoint` when it
  /// states none).
  package init(of session: SessionID, in note: SignedNote) throws(HistoryError) {
    do {
      checkpoint = try Checkpoint(text: note.text)
    } catch {
      throw .checkpoint(error)
    }
    self.session = session
    self.note = note
  }

  /// The first pass: every recorded leaf and its position.
  package mutating func look(at entry: CheckpointEntry, position: Int) {
    if entry.session == session { found = (entry, position) }
  }

  /// Ends the first pass: the session must be in the checkpoint (`.notInCheckpoint`).
  package mutating func startPath() throws(HistoryError) {
    guard let found, let builder = MerkleTree.ProofBuilder(index: found.index, size: checkpoint.sessionCount) else {
      throw .checkpoint(.notInCheckpoint(session))
    }
    path = builder
  }

  /// The second pass: every recorded leaf, in order.
  package mutating func append(_ entry: CheckpointEntry) {
    path?.append(entry.leafHash)
  }

  /// The proof, once the second pass is done.
  package func proof() throws(HistoryError) -> SessionProof {
    guard let found, let path else { throw .checkpoint(.notInCheckpoint(session)) }
    return SessionProof(
      note: note, entry: found.entry, index: found.index, size: checkpoint.sessionCount, path: path.path)
  }
}
