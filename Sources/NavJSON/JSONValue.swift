#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A JSON value, compared by meaning rather than by spelling.
///
/// Screens are the app's own data and NavStore must carry them without knowing their type. This
/// is the untyped form tools use (the CLI, importers, the store): objects compare without regard
/// to key order, and numbers are IEEE-754 doubles, the number model RFC 8785 canonicalization
/// (and so the hash chain) is defined over. Strings compare by their exact Unicode scalars (not
/// Swift's canonical equivalence), so two values are equal exactly when their canonical bytes are.
public enum JSONValue: Sendable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number, as a double.
  case number(Double)
  /// A string.
  case string(String)
  /// An array, in order.
  case array([JSONValue])
  /// An object; member order carries no meaning.
  case object([String: JSONValue])
}

extension JSONValue: Hashable {
  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.bool(let left), .bool(let right)): return left == right
    case (.number(let left), .number(let right)): return left == right
    case (.string(let left), .string(let right)): return left.hasSameUTF8(as: right)
    case (.array(let left), .array(let right)): return left == right
    case (.object(let left), .object(let right)):
      guard left.count == right.count else { return false }
      for (key, value) in left {
        // A dictionary finds keys by canonical equivalence; the bytes must match too.
        guard let index = right.index(forKey: key), right[index].key.hasSameUTF8(as: key),
          right[index].value == value
        else { return false }
      }
      return true
    default: return false
    }
  }

  public func hash(into hasher: inout Hasher) {
    switch self {
    case .null: hasher.combine(0)
    case .bool(let bool): hasher.combine(bool)
    case .number(let number): hasher.combine(number)
    case .string(let string): Self.hashBytes(of: string, into: &hasher)
    case .array(let array): hasher.combine(array)
    case .object(let object):
      // Order-independent: members are combined into one value with XOR.
      var members = 0
      for (key, value) in object {
        var member = Hasher()
        Self.hashBytes(of: key, into: &member)
        member.combine(value)
        members ^= member.finalize()
      }
      hasher.combine(object.count)
      hasher.combine(members)
    }
  }

  private static func hashBytes(of string: String, into hasher: inout Hasher) {
    var copy = string
    copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }
}

extension JSONValue {
  /// The string, when this value is one; lets callers test shapes without a `switch`.
  package var stringValue: String? {
    if case .string(let string) = self { return string }
    return nil
  }

  /// The members, when this value is an object.
  package var objectValue: [String: JSONValue]? {
    if case .object(let members) = self { return members }
    return nil
  }

  /// The elements, when this value is an array.
  package var arrayValue: [JSONValue]? {
    if case .array(let elements) = self { return elements }
    return nil
  }

  /// How many arrays and objects nest in the value: 0 for a scalar, 1 for a flat array or
  /// object.
  package var nestingDepth: Int {
    switch self {
    case .array(let elements): 1 + (elements.map(\.nestingDepth).max() ?? 0)
    case .object(let members): 1 + (members.values.map(\.nestingDepth).max() ?? 0)
    default: 0
    }
  }

  /// A short name of the value's kind, for error messages ("expected a string, found a number").
  package var kindDescription: String {
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
  /// Lets tests and tools write JSON values as Swift literals.
  public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
  /// Lets tests and tools write JSON values as Swift literals.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
  /// Lets tests and tools write JSON values as Swift literals.
  public init(integerLiteral value: Int) { self = .number(Double(value)) }
}

extension JSONValue: ExpressibleByFloatLiteral {
  /// Lets tests and tools write JSON values as Swift literals.
  public init(floatLiteral value: Double) { self = .number(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
  /// Lets tests and tools write JSON values as Swift literals.
  public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
  /// Lets tests and tools write JSON values as Swift literals.
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

extension String {
  /// Byte equality of the UTF-8 (not Swift's canonical equivalence), compared in place: ids and
  /// screens are equal exactly when their canonical bytes, and so their hashes, are.
  package func hasSameUTF8(as other: String) -> Bool {
    guard utf8.count == other.utf8.count else { return false }
    var left = self
    var right = other
    // The same storage (copies of one id, as a batch's events are) needs no comparing; the rest
    // is memcmp's, where a generic byte loop cost an upload's dictionary lookups by session id
    // about as much as decoding one of its lines.
    return left.withUTF8 { leftBytes in
      right.withUTF8 { rightBytes in
        guard let leftStart = leftBytes.baseAddress, let rightStart = rightBytes.baseAddress else { return true }
        return leftStart == rightStart || memcmp(leftStart, rightStart, leftBytes.count) == 0
      }
    }
  }
}
