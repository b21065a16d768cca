import NavCore

/// Why a checkpoint or a proof could not be used.
public enum CheckpointError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Its text is not a NavStore checkpoint.
  case malformed(String)
  /// Its signature did not hold (or the key is not the one that signed it).
  case signature(NoteError)
  /// It names another store.
  case otherStore(checkpoint: String, store: String)
  /// The store holds no record of it (removed, or the store was replaced).
  case unrecorded(root: String)
  /// The store's record of it does not give the signed root: the record was altered.
  case recordAltered(root: String)
  /// A proof does not lead from its entry to the checkpoint's root.
  case proofFails(String)
  /// The store has no identity record (the table was emptied by hand).
  case identityMissing
  /// The session is not one the checkpoint names.
  case notInCheckpoint(SessionID)

  public var description: String {
    switch self {
    case .malformed(let reason): "not a NavStore checkpoint: \(reason)"
    case .signature(let error): "the checkpoint's signature does not verify: \(error)"
    case .otherStore(let checkpoint, let store):
      "the checkpoint is of the store '\(checkpoint)', not of this one ('\(store)'): another store, or this one replaced"
    case .unrecorded(let root):
      "this store holds no record of the checkpoint with root \(root): the record was removed, or the store was replaced"
    case .recordAltered(let root):
      "this store's record of the checkpoint with root \(root) does not give that root: the record was altered"
    case .proofFails(let reason): "the proof does not hold: \(reason)"
    case .identityMissing: "the store has no identity record (its store_identity table was emptied outside NavStore)"
    case .notInCheckpoint(let session):
      "the session '\(session)' is not in the checkpoint (it began after it, or had no events then)"
    }
  }
}
