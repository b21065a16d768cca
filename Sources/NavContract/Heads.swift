import NavCore

/// `POST /v1/heads`: the heads of many sessions in one request, so that a backfill asks once
/// per batch, not once per session.
package struct HeadsRequest: Hashable, Sendable, Codable {
  /// The most sessions one request may name.
  package static let maximumSessions = 5_000

  /// The sessions asked about.
  package var sessions: [SessionID]

  /// A request.
  package init(sessions: [SessionID]) { self.sessions = sessions }

  private enum CodingKeys: String, CodingKey { case sessions }

  /// The ids as strings.
  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(sessions.map(\.rawValue), forKey: .sessions)
  }

  /// Reads one; an id that is not one fails the whole request.
  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let texts = try container.decode([String].self, forKey: .sessions)
    sessions = try texts.map { text in
      do {
        return try SessionID(text)
      } catch {
        throw DecodingError.dataCorruptedError(
          forKey: .sessions, in: container, debugDescription: "sessions: \(error)")
      }
    }
  }
}

/// The answer to `POST /v1/heads`: every session asked about, with its head (`seq` 0 and no
/// hash for one the collector does not hold).
package struct HeadsAnswer: Hashable, Sendable, Codable {
  /// Each session's head.
  package var heads: [SessionID: SessionHead]

  /// An answer.
  package init(heads: [SessionID: SessionHead]) { self.heads = heads }

  private enum CodingKeys: String, CodingKey { case heads }

  /// An object keyed by session id.
  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(SessionKeyed(heads), forKey: .heads)
  }

  /// Reads one.
  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    heads = try container.decode(SessionKeyed<SessionHead>.self, forKey: .heads).values
  }
}
