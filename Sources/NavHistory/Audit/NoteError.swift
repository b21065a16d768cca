/// Why a key or a signed note was refused.
public enum NoteError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A key's text is not a key of the signed-note format.
  case malformedKey(String)
  /// A note's text is not a signed note.
  case malformedNote(String)
  /// The note carries no signature by the verifier's key.
  case unknownKey(String)
  /// The verifier's signature line is there, but does not hold.
  case badSignature(String)
  /// The signing library failed.
  case signingFailed(String)

  public var description: String {
    switch self {
    case .malformedKey(let reason), .malformedNote(let reason), .unknownKey(let reason), .badSignature(let reason):
      reason
    case .signingFailed(let reason):
      "signing failed: \(reason)"
    }
  }
}
