/// `JSONValue` takes part in `Codable`, so that `Route<JSONValue>` and friends decode with any
/// decoder, Foundation's `JSONDecoder` included.
///
/// NavStore's own `JSONValueDecoder`/`JSONValueEncoder` hand the subtree over directly instead of
/// probing the container kind by kind.
extension JSONValue: Codable {
  public init(from decoder: any Decoder) throws {
    if let direct = decoder as? JSONValueDecoding {
      self = direct.value
      return
    }
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let bool = try? container.decode(Bool.self) {
      self = .bool(bool)
    } else if let number = try? container.decode(Double.self) {
      self = .number(number)
    } else if let string = try? container.decode(String.self) {
      self = .string(string)
    } else if let array = try? container.decode([JSONValue].self) {
      self = .array(array)
    } else if let object = try? container.decode([String: JSONValue].self) {
      self = .object(object)
    } else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "expected a JSON value")
    }
  }

  public func encode(to encoder: any Encoder) throws {
    if let direct = encoder as? JSONValueEncoding {
      direct.store(self)
      return
    }
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let bool): try container.encode(bool)
    case .number(let number): try container.encode(number)
    case .string(let string): try container.encode(string)
    case .array(let array): try container.encode(array)
    case .object(let object): try container.encode(object)
    }
  }
}

/// A decoder that already holds its input as a `JSONValue` (NavStore's own).
protocol JSONValueDecoding: Decoder {
  var value: JSONValue { get }
}

/// An encoder that can take a finished `JSONValue` in one piece (NavStore's own).
protocol JSONValueEncoding: Encoder {
  func store(_ value: JSONValue)
}
