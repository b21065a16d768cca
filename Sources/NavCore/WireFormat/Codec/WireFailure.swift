import NavJSON

/// Why a value could not be read from or written to the wire format, while the codec is still
/// unwinding: the field path grows one step per level on the way out, so the happy path never
/// builds a path at all.
struct WireFailure: Error {
  /// The field at fault, from the value being read or written down to the field.
  var path: [AnyCodingKey]
  /// What is wrong, in words.
  var message: String

  init(at path: [AnyCodingKey] = [], _ message: String) {
    self.path = path
    self.message = message
  }

  /// `expected an object, found a string`: a member of the wrong JSON type.
  static func mismatch(expected: String, found value: JSONValue) -> WireFailure {
    WireFailure("expected \(expected), found \(value.kindDescription)")
  }

  /// The same failure, one member further in.
  func inside(_ key: String) -> WireFailure {
    var copy = self
    copy.path.insert(AnyCodingKey(key), at: 0)
    return copy
  }

  /// The same failure, one array element further in.
  func inside(index: Int) -> WireFailure {
    var copy = self
    copy.path.insert(AnyCodingKey(intValue: index), at: 0)
    return copy
  }

  /// A `Codable` error from a typed screen, its coding path kept as the field path.
  init(_ error: any Error) {
    switch error {
    case let failure as WireFailure:
      self = failure
    case DecodingError.keyNotFound(let key, let context):
      self.init(
        at: context.codingPath.map(AnyCodingKey.init) + [AnyCodingKey(key)], "missing field \"\(key.stringValue)\"")
    case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
      DecodingError.dataCorrupted(let context):
      self.init(at: context.codingPath.map(AnyCodingKey.init), context.debugDescription)
    case EncodingError.invalidValue(_, let context):
      self.init(at: context.codingPath.map(AnyCodingKey.init), context.debugDescription)
    default:
      self.init("\(error)")
    }
  }

  /// The public error: the path rendered the way a person points at a field.
  var wireFormatError: WireFormatError {
    WireFormatError(field: FieldPath.render(path), message: message)
  }

  /// The failure as `Codable` reports it, below the coding path of the decoder that asked.
  func decodingError(below codingPath: [any CodingKey]) -> DecodingError {
    DecodingError.dataCorrupted(.init(codingPath: codingPath + path, debugDescription: message))
  }

  /// The failure as `Codable` reports it, below the coding path of the encoder that asked.
  func encodingError(of value: Any, below codingPath: [any CodingKey]) -> EncodingError {
    EncodingError.invalidValue(value, .init(codingPath: codingPath + path, debugDescription: message))
  }
}

extension Array {
  /// Each element transformed, in order; a failure is placed under the element's index, as the
  /// codec names a field inside an array (`routes[2].screen`).
  func mapPlacingFailures<Result>(
    _ transform: (Element) throws(WireFailure) -> Result
  ) throws(WireFailure) -> [Result] {
    var results: [Result] = []
    results.reserveCapacity(count)
    for (index, element) in enumerated() {
      do {
        results.append(try transform(element))
      } catch {
        throw error.inside(index: index)
      }
    }
    return results
  }
}

extension AnyCodingKey {
  /// Any coding key, as a field path step.
  init(_ key: any CodingKey) {
    if let index = key.intValue {
      self.init(intValue: index)
    } else {
      self.init(key.stringValue)
    }
  }
}
