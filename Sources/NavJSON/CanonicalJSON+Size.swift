/// How large a value's canonical text is, without writing it: what the store's tree limits
/// count of every screen a state takes in or lets go.
extension CanonicalJSON {
  /// A value's canonical text length in bytes, and how many arrays and objects nest in it (0
  /// for a scalar), in one walk and without an allocation for the common values.
  package struct Size: Hashable, Sendable {
    /// The length of `canonicalBytes`.
    package var bytes: Int
    /// `JSONValue.nestingDepth`.
    package var nesting: Int
  }

  /// The size of `value`'s canonical text: exactly `value.canonicalBytes.count`.
  package static func size(of value: JSONValue) -> Size {
    switch value {
    case .null: return Size(bytes: 4, nesting: 0)
    case .bool(let bool): return Size(bytes: bool ? 4 : 5, nesting: 0)
    case .number(let number): return Size(bytes: numberLength(number), nesting: 0)
    case .string(let string): return Size(bytes: stringLength(string), nesting: 0)
    case .array(let elements):
      var size = Size(bytes: 2 + max(0, elements.count - 1), nesting: 1)
      for element in elements {
        let inner = self.size(of: element)
        size.bytes += inner.bytes
        size.nesting = max(size.nesting, inner.nesting + 1)
      }
      return size
    case .object(let members):
      // `{`, `}`, a `:` per member and a `,` between members.
      var size = Size(bytes: 2 + members.count + max(0, members.count - 1), nesting: 1)
      for (key, member) in members {
        let inner = self.size(of: member)
        size.bytes += stringLength(key) + inner.bytes
        size.nesting = max(size.nesting, inner.nesting + 1)
      }
      return size
    }
  }

  /// The length of a string's canonical text, quotes and escapes included.
  static func stringLength(_ string: String) -> Int {
    var length = 2
    for byte in string.utf8 {
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x08, 0x09, 0x0A, 0x0C, 0x0D: length += 2
      case 0..<0x20: length += 6
      default: length += 1
      }
    }
    return length
  }

  /// The length of a number's canonical text.
  static func numberLength(_ number: Double) -> Int {
    guard abs(number) <= JSONParser.maximumExactInteger, number.rounded(.towardZero) == number else {
      return format(number).utf8.count
    }
    var magnitude = Int64(number).magnitude
    var digits = 1
    while magnitude >= 10 {
      magnitude /= 10
      digits += 1
    }
    return digits + (number < 0 ? 1 : 0)
  }
}
