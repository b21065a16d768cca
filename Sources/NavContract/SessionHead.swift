import NavCore

/// Where a session stands on the collector: its last event's seq and the chain value after it.
/// What an upload answers for every session it named, and what `POST /v1/heads` and
/// `GET /v1/sessions/{id}/head` answer: an uploader sends from `seq + 1` on.
package struct SessionHead: Hashable, Sendable, Codable {
  /// The last event's seq (0: the collector holds none of the session).
  package var seq: Int
  /// The chain value after it, lowercase hex (`nil`: no event).
  package var hash: String?

  /// A head.
  package init(seq: Int, hash: String?) {
    self.seq = seq
    self.hash = hash
  }

  /// The head of a session the collector does not hold.
  package static let none = SessionHead(seq: 0, hash: nil)

  private enum CodingKeys: String, CodingKey { case seq, hash }

  /// Both members, `hash` as `null` when there is none, as the contract writes it.
  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(seq, forKey: .seq)
    try container.encode(hash, forKey: .hash)
  }
}
