import NavJSON

/// A value of the wire format, read and written by the one codec. Its `Codable` conformance is
/// that codec too (`decoded(from:)`, `encodeWire(to:)`), so `JSONEncoder`, `JSONDecoder` and
/// NavStore's own entry points give the same JSON and the same errors.
protocol WireValue {
  /// Reads the value from a parsed tree, strictly.
  static func read(from tree: JSONValue) throws(WireFailure) -> Self
  /// Writes the value's canonical (RFC 8785) bytes.
  func write(to writer: inout CanonicalWriter) throws(WireFailure)
}

extension WireValue {
  /// The value's canonical bytes.
  func canonicalBytes(capacity: Int = 128) throws(WireFailure) -> [UInt8] {
    var writer = CanonicalWriter(capacity: capacity)
    try write(to: &writer)
    return writer.bytes
  }

  /// `init(from:)` for any decoder: the JSON at the decoder's position, read by the codec.
  static func decoded(from decoder: any Decoder) throws -> Self {
    let tree = try JSONValue(from: decoder)
    do {
      return try read(from: tree)
    } catch {
      throw error.decodingError(below: decoder.codingPath)
    }
  }

  /// `encode(to:)` for any encoder: the codec's JSON, handed over as a value.
  func encodeWire(to encoder: any Encoder) throws {
    let bytes: [UInt8]
    do {
      bytes = try canonicalBytes()
    } catch {
      throw error.encodingError(of: self, below: encoder.codingPath)
    }
    try JSONParser.parseOwnCanonical(bytes).encode(to: encoder)
  }
}
