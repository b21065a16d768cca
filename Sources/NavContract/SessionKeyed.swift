import NavCore

/// A JSON object keyed by session id, as the contract writes heads. A key that is not a session
/// id is left out when reading: no collector sends one, and it names nothing to act on.
struct SessionKeyed<Value: Codable & Sendable>: Codable, Sendable {
  var values: [SessionID: Value]

  init(_ values: [SessionID: Value]) { self.values = values }

  /// Two ids that differ only in Unicode normalization are two sessions, but one key of a JSON
  /// object (Swift's strings, and the wire format's parser, hold them equal): the first of them
  /// in byte order is written, the same one every time.
  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(Self.members(values))
  }

  /// The object's members: each id's text, the first in byte order of ids equal to Swift.
  static func members(_ values: [SessionID: Value]) -> [String: Value] {
    Dictionary(
      values.sorted { $0.key < $1.key }.map { ($0.key.rawValue, $0.value) }, uniquingKeysWith: { first, _ in first })
  }

  init(from decoder: any Decoder) throws {
    let object = try decoder.singleValueContainer().decode([String: Value].self)
    values = [:]
    for (key, value) in object {
      if let id = try? SessionID(key) { values[id] = value }
    }
  }
}
