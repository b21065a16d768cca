import NavCore

/// A JSON object keyed by session id, as the contract writes heads. A key that is not a session
/// id is left out when reading: no collector sends one, and it names nothing to act on.
struct SessionKeyed<Value: Codable & Sendable>: Codable, Sendable {
  var values: [SessionID: Value]

  init(_ values: [SessionID: Value]) { self.values = values }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(Dictionary(uniqueKeysWithValues: values.map { ($0.key.rawValue, $0.value) }))
  }

  init(from decoder: any Decoder) throws {
    let object = try decoder.singleValueContainer().decode([String: Value].self)
    values = [:]
    for (key, value) in object {
      if let id = try? SessionID(key) { values[id] = value }
    }
  }
}
