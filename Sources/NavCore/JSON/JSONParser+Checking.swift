/// How much of a member's value `JSONParser.parseDocumentMembers(_:reading:)` builds. Whatever
/// is not built is still checked, with the same rules and the same errors, and stands in the
/// member list as `null`: the reader that chose not to build it does not read it.
enum MemberReading {
  /// The whole value.
  case whole
  /// Strings, numbers and literals; an array or object is checked only.
  case scalar
  /// An object's members in order, each value read as `.scalar`, handed to the closure, whose
  /// result stands for the object; any other value as `.scalar`. Names a screen
  /// (`ScreenName.of(members:)`) without building its payload or a dictionary.
  case outline(([(String, JSONValue)]) -> JSONValue)
  /// Nothing: the value is checked only.
  case checked
}

extension JSONParser {
  /// Checks one JSON document without building it: it throws exactly what `parse` would throw
  /// for the same bytes, and nothing when `parse` would succeed.
  package static func check(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) {
    var parser = JSONParser(bytes)
    parser.skipWhitespace()
    try parser.checkValue()
    try parser.finishDocument()
  }

  /// Reads one value as `reading` asks.
  mutating func parseValue(_ reading: MemberReading) throws(JSONParseError) -> JSONValue {
    guard index < bytes.count else { return try parseValue() }  // the same error
    let byte = bytes[index]
    let isContainer = byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[")
    switch reading {
    case .whole:
      return try parseValue()
    case .outline(let summary) where byte == UInt8(ascii: "{"):
      var members = MemberList()
      try parseMembers(reading: { _ in .scalar }) { key, value in members.add(key, value) }
      return summary(members.members)
    case .scalar, .outline:
      guard isContainer else { return try parseValue() }
      try checkValue()
      return .null
    case .checked:
      try checkValue()
      return .null
    }
  }

  /// Checks one value exactly as `parseValue` would (the same errors at the same places),
  /// without building it. Plain strings (ASCII, no escapes), numbers and literals need no heap;
  /// anything else (an escape, other UTF-8, an object of many members) is handed to the
  /// building parser, whose rules then hold by construction.
  mutating func checkValue() throws(JSONParseError) {
    guard index < bytes.count else {
      _ = try parseValue()  // throws: the input ended where a value was due
      return
    }
    switch bytes[index] {
    case UInt8(ascii: "{"): try checkObject()
    case UInt8(ascii: "["): try checkArray()
    case UInt8(ascii: "\""): _ = try checkString()
    default: _ = try parseLiteralOrNumber()
    }
  }

  /// The objects `checkObject` compares keys of pairwise; a larger one is built instead, so
  /// hostile input cannot make the check quadratic.
  private static let pairwiseKeyLimit = 16

  private mutating func checkObject() throws(JSONParseError) {
    let start = index
    let startDepth = depth
    try enterContainer()
    index += 1
    skipWhitespace()
    if consume(UInt8(ascii: "}")) {
      depth -= 1
      return
    }
    // The keys' byte ranges, compared as bytes: for plain keys that is string equality.
    var keys: [Range<Int>] = []
    while true {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
        throw error("expected a string key in an object")
      }
      let keyOffset = index
      guard let key = try checkString(), keys.count < Self.pairwiseKeyLimit else {
        // A key that is not plain, or many keys: the building parser decides.
        index = start
        depth = startDepth
        _ = try parseObject()
        return
      }
      skipWhitespace()
      guard consume(UInt8(ascii: ":")) else { throw error("expected ':' after an object key") }
      skipWhitespace()
      try checkValue()
      // After the value, as `parseMembers` does, so that the first error is the same one.
      if keys.contains(where: { bytes[$0].elementsEqual(bytes[key]) }) {
        index = keyOffset
        throw error("duplicate key \"\(String(decoding: UnsafeBufferPointer(rebasing: bytes[key]), as: UTF8.self))\" in an object")
      }
      keys.append(key)
      skipWhitespace()
      if consume(UInt8(ascii: ",")) { continue }
      if consume(UInt8(ascii: "}")) { break }
      throw error("expected ',' or '}' after an object member")
    }
    depth -= 1
  }

  private mutating func checkArray() throws(JSONParseError) {
    try enterContainer()
    index += 1
    skipWhitespace()
    if consume(UInt8(ascii: "]")) {
      depth -= 1
      return
    }
    while true {
      skipWhitespace()
      try checkValue()
      skipWhitespace()
      if consume(UInt8(ascii: ",")) { continue }
      if consume(UInt8(ascii: "]")) { break }
      throw error("expected ',' or ']' after an array element")
    }
    depth -= 1
  }

  /// Checks a string; returns the range of its bytes between the quotes when it is plain
  /// (printable ASCII without escapes, so the bytes are the string), or `nil` when it was not
  /// plain and `parseString` checked it.
  private mutating func checkString() throws(JSONParseError) -> Range<Int>? {
    let quote = index
    var position = index + 1
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        index = position + 1
        return quote + 1..<position
      }
      if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
      position += 1
    }
    _ = try parseString()  // an escape, other UTF-8, a control character or no end
    return nil
  }
}
