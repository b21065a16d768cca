import NavCore

/// The collector's answer to `POST /v1/events`: what became of the lines, and where every
/// session the upload named stands after it.
package struct UploadAnswer: Hashable, Sendable, Codable {
  /// Lines stored now.
  package var accepted: Int
  /// Lines stored already (resent).
  package var duplicates: Int
  /// The lines not stored, in order, with why.
  package var rejected: [RejectedLine]
  /// The head of every session the upload named, after it.
  package var heads: [SessionID: SessionHead]

  /// An answer.
  package init(
    accepted: Int = 0, duplicates: Int = 0, rejected: [RejectedLine] = [], heads: [SessionID: SessionHead] = [:]
  ) {
    self.accepted = accepted
    self.duplicates = duplicates
    self.rejected = rejected
    self.heads = heads
  }

  private enum CodingKeys: String, CodingKey { case accepted, duplicates, rejected, heads }

  /// Heads are an object keyed by session id.
  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(accepted, forKey: .accepted)
    try container.encode(duplicates, forKey: .duplicates)
    try container.encode(rejected, forKey: .rejected)
    try container.encode(SessionKeyed(heads), forKey: .heads)
  }

  /// Reads one; `heads` may be missing (an older collector's answer).
  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    accepted = try container.decode(Int.self, forKey: .accepted)
    duplicates = try container.decode(Int.self, forKey: .duplicates)
    rejected = try container.decode([RejectedLine].self, forKey: .rejected)
    heads = try container.decodeIfPresent(SessionKeyed<SessionHead>.self, forKey: .heads)?.values ?? [:]
  }
}
