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

  /// Reads one; an id that is not one, or a member other than `sessions`, fails the whole
  /// request.
  package init(from decoder: any Decoder) throws {
    let members = try decoder.container(keyedBy: AnyMember.self).allKeys.map(\.stringValue)
    guard members == ["sessions"] else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: [], debugDescription: "the body has members other than sessions: \(members.sorted())"))
    }
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

extension HeadsRequest {
  /// The ids of `sessions` that another of them differs from only in Unicode normalization
  /// (`é` written as one character or as two): two sessions, whose heads an answer cannot hold
  /// both of, since the wire format reads such keys of one object as the same key. A client
  /// asks for these one at a time.
  package static func ambiguous(_ sessions: [SessionID]) -> Set<SessionID> {
    var byText: [String: [SessionID]] = [:]
    for session in Set(sessions) { byText[session.rawValue, default: []].append(session) }
    return Set(byText.values.filter { $0.count > 1 }.joined())
  }
}

/// Any member of an object, to see them all.
private struct AnyMember: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
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
