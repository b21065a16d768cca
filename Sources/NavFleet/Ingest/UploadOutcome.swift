import NavCore
import NavPersistence

/// What the store did with each line of an upload, and where each session named stands after
/// it: the collector's answer to `POST /v1/events`.
public struct UploadOutcome: Hashable, Sendable {
  /// One line's outcome.
  public struct Line: Hashable, Sendable {
    /// The line's number in the upload, from 1.
    public var number: Int
    /// What became of it.
    public var outcome: LineOutcome
  }

  /// Each non-blank line's outcome, in order.
  public var lines: [Line] = []
  /// The head of every session the upload named, after it (seq 0 and no hash for a session
  /// that has no event).
  public var heads: [SessionID: SessionHead] = [:]

  /// How many lines were stored now.
  public var accepted: Int { lines.count { $0.outcome == .accepted } }
  /// How many lines were stored already.
  public var duplicates: Int { lines.count { $0.outcome == .duplicate } }
  /// The rejected lines, with why.
  public var rejected: [(line: Int, rejection: LineRejection)] {
    lines.compactMap { line in
      if case .rejected(let rejection) = line.outcome { (line.number, rejection) } else { nil }
    }
  }
}

/// A session's last seq and chain value.
public struct SessionHead: Hashable, Sendable {
  /// The last event's seq (0: none).
  public var seq: Int
  /// The chain value after it, lowercase hex (`nil`: no event).
  public var hash: String?

  /// A head.
  public init(seq: Int, hash: String?) {
    self.seq = seq
    self.hash = hash
  }
}

/// What became of one line of an upload.
public enum LineOutcome: Hashable, Sendable {
  /// Stored now.
  case accepted
  /// The same event (session, seq and content) was stored already: a resend.
  case duplicate
  /// Not stored, and why.
  case rejected(LineRejection)
}

/// Why a line of an upload was not stored.
public struct LineRejection: Hashable, Sendable {
  /// The reasons, as the collector's contract names them.
  public enum Reason: String, Hashable, Sendable {
    /// Not a wire-format event; the message names the field.
    case invalid
    /// The seq holds a different event, or the session was forgotten.
    case conflict
    /// The seq is past the session's next one, or an earlier line of the session in the same
    /// upload was rejected.
    case gap
    /// The operation is impossible in the session's state.
    case illegal
    /// The line's hash is not the chain value the store computes.
    case hash
    /// Not a `start`, for a session the store does not hold.
    case unknownSession = "unknown-session"
    /// The session belongs to the device whose key its start names, and the upload was not
    /// signed by that key.
    case wrongDevice = "wrong-device"
  }

  /// Why.
  public var reason: Reason
  /// The line's session, when it could be read.
  public var session: SessionID?
  /// The seq the line had or would have taken, when known.
  public var seq: Int?
  /// One sentence for the person reading the answer.
  public var message: String
}
