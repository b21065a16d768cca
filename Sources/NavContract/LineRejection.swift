import NavCore

/// Why the collector did not store a line, as its contract names the reason: in an upload's
/// answer, and in the hold an uploader keeps the line's session at (`UploadHold`). A reason
/// this version does not know (a newer collector's) is `unrecognized`, its word kept at the
/// start of the message.
public enum RejectionReason: String, Hashable, Sendable, Codable, CaseIterable {
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
  /// The line alone is over the collector's limits: the `413` (`too-large`) of a request
  /// that held only it.
  case tooLarge = "too-large"
  /// The line's time is further ahead of the collector's clock than it allows: the device's
  /// clock is wrong, or the line was made up.
  case fromTheFuture = "from-the-future"
  /// A reason this version of the contract does not name.
  case unrecognized

  /// The reason `text` names, `unrecognized` when none.
  public init(naming text: String) { self = RejectionReason(rawValue: text) ?? .unrecognized }

  /// Decodes any text: a newer collector's reason is `unrecognized`, not a failure.
  public init(from decoder: any Decoder) throws {
    self.init(naming: try decoder.singleValueContainer().decode(String.self))
  }
}

/// Why the collector did not store a line of an upload: the reason, the line's session and seq
/// when known, and a sentence for the person reading it.
package struct LineRejection: Hashable, Sendable {
  /// Why.
  package var reason: RejectionReason
  /// The line's session, when it could be read.
  package var session: SessionID?
  /// The seq the line had or would have taken, when known.
  package var seq: Int?
  /// One sentence for the person reading the answer.
  package var message: String

  /// A rejection.
  package init(reason: RejectionReason, session: SessionID? = nil, seq: Int? = nil, message: String) {
    self.reason = reason
    self.session = session
    self.seq = seq
    self.message = message
  }
}

/// A rejected line of an upload's answer: its number in what was sent (from 1) and why.
package struct RejectedLine: Hashable, Sendable, Codable {
  /// The line's number in the request, from 1.
  package var line: Int
  /// Why it was not stored.
  package var rejection: LineRejection

  /// A rejected line.
  package init(line: Int, rejection: LineRejection) {
    self.line = line
    self.rejection = rejection
  }

  private enum CodingKeys: String, CodingKey { case line, session, seq, reason, message }

  /// One flat object, `session` and `seq` as `null` when unknown, as the contract writes it.
  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(line, forKey: .line)
    try container.encode(rejection.session?.rawValue, forKey: .session)
    try container.encode(rejection.seq, forKey: .seq)
    try container.encode(rejection.reason, forKey: .reason)
    try container.encode(rejection.message, forKey: .message)
  }

  /// Reads one, a session id that is not one read as none.
  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    line = try container.decode(Int.self, forKey: .line)
    let session = try container.decodeIfPresent(String.self, forKey: .session)
    let word = try container.decodeIfPresent(String.self, forKey: .reason) ?? ""
    let reason = RejectionReason(naming: word)
    var message = try container.decodeIfPresent(String.self, forKey: .message) ?? ""
    // A reason this version does not name keeps its word, first in the sentence.
    if reason == .unrecognized { message = word + (message.isEmpty ? "" : ": " + message) }
    rejection = LineRejection(
      reason: reason, session: session.flatMap { try? SessionID($0) },
      seq: try container.decodeIfPresent(Int.self, forKey: .seq), message: message)
  }
}
