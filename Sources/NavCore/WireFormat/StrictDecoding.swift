/// The helpers every wire-format decoder uses to be strict in the same way: unknown fields are
/// refused, required fields are named when missing, and every rejection carries the path of the
/// field at fault.
typealias WireContainer = KeyedDecodingContainer<AnyCodingKey>

extension KeyedDecodingContainer where Key == AnyCodingKey {
  /// Refuses any field not in `allowed`, naming it and listing what is allowed.
  func rejectUnknownFields(allowed: [String], in what: String) throws {
    let keys = allKeys
    guard !keys.allSatisfy({ allowed.contains($0.stringValue) }) else { return }
    for key in keys.sorted(by: { $0.stringValue < $1.stringValue }) where !allowed.contains(key.stringValue) {
      let expected = allowed.isEmpty ? "no other fields" : allowed.map { "\"\($0)\"" }.joined(separator: ", ")
      throw failure(
        at: [key], "unknown field \"\(key.stringValue)\" in \(what) (allowed: \(expected))")
    }
  }

  /// Decodes a field that must be present.
  func required<T: Decodable>(_ type: T.Type, _ field: String) throws -> T {
    try decode(type, forKey: AnyCodingKey(field))
  }

  /// Decodes a field that may be absent; when present it must be of the type (`null` is refused).
  func optional<T: Decodable>(_ type: T.Type, _ field: String) throws -> T? {
    let key = AnyCodingKey(field)
    guard contains(key) else { return nil }
    return try decode(type, forKey: key)
  }

  /// Decodes a required integer field that must be at least `minimum`.
  func requiredInteger(_ field: String, atLeast minimum: Int) throws -> Int {
    try checked(required(Int.self, field), field, atLeast: minimum)
  }

  /// Decodes an optional integer field that, when present, must be at least `minimum`.
  func optionalInteger(_ field: String, atLeast minimum: Int) throws -> Int? {
    guard let value = try optional(Int.self, field) else { return nil }
    return try checked(value, field, atLeast: minimum)
  }

  private func checked(_ value: Int, _ field: String, atLeast minimum: Int) throws -> Int {
    guard value >= minimum else {
      throw failure(at: [AnyCodingKey(field)], "\(field) must be at least \(minimum), not \(value)")
    }
    return value
  }

  /// An error at a field below this container.
  func failure(at relativePath: [any CodingKey], _ message: String) -> DecodingError {
    DecodingError.dataCorrupted(.init(codingPath: codingPath + relativePath, debugDescription: message))
  }
}
