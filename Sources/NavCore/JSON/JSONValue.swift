/// A JSON value, compared by meaning rather than by spelling.
///
/// Screens are the app's own data and NavStore must carry them without knowing their type. This
/// is the untyped form tools use (the CLI, importers, the store): objects compare without regard
/// to key order, and numbers are IEEE-754 doubles, the number model RFC 8785 canonicalization
/// (and so the hash chain) is defined over.
public enum JSONValue: Sendable, Hashable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])
}

extension JSONValue {
  /// The string, when this value is one; lets callers test shapes without a `switch`.
  public var stringValue: String? {
    if case .string(let string) = self { return string }
    return nil
  }

  /// The members, when this value is an object.
  public var objectValue: [String: JSONValue]? {
    if case .object(let members) = self { return members }
    return nil
  }

  /// The elements, when this value is an array.
  public var arrayValue: [JSONValue]? {
    if case .array(let elements) = self { return elements }
    return nil
  }

  /// A short name of the value's kind, for error messages ("expected a string, found a number").
  public var kindDescription: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}

extension JSONValue: ExpressibleByNilLiteral {
  public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
  public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
  public init(integerLiteral value: Int) { self = .number(Double(value)) }
}

extension JSONValue: ExpressibleByFloatLiteral {
  public init(floatLiteral value: Double) { self = .number(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
  public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
  /// Builds an object; a repeated key keeps its last value, as a dictionary literal would.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }
}

extension JSONValue: CustomStringConvertible {
  /// The canonical (RFC 8785) text of the value: compact, with sorted keys.
  public var description: String { canonicalString }
}
