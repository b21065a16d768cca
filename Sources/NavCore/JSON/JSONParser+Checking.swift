/// How much of a member's value `JSONParser.parseDocumentMembers(_:reading:)` builds. Whatever
/// is not built is still checked, with the same rules and the same errors, and stands in the
/// member list as `null`: the reader that chose not to build it does not read it.
enum MemberReading {
  /// The whole value.
  case whole
  /// Strings, numbers and literals; an array or object is checked only.
  case scalar
  /// A screen's name (`ScreenName.of`) as a string, found while checking the screen: its
  /// payload is not built. Any other value as `.scalar`.
  case screenName
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
    case .screenName where byte == UInt8(ascii: "{"):
      let start = index
      let startDepth = depth
      var outline: ObjectOutline? = ObjectOutline()
      try checkObject(outline: &outline)
      if let outline, let name = outline.screenName(in: bytes) { return .string(name) }
      // Checked, but not plainly enough to name from its bytes: built, then named.
      index = start
      depth = startDepth
      return .string(ScreenName.of(try parseObject()))
    case .scalar, .screenName:
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

  /// `outline`, when given, is filled with what names the object as a screen; it is set to
  /// `nil` when the object is not plain enough for that (then the building parser names it).
  private mutating func checkObject(outline: inout ObjectOutline?) throws(JSONParseError) {
    let start = index
    let startDepth = depth
    try enterContainer()
    index += 1
    skipWhitespace()
    if consume(UInt8(ascii: "}")) {
      depth -= 1
      return
    }
    // The keys' byte ranges, compared as bytes: for plain keys that is string equality. They
    // are kept on one stack for the whole document, so nested objects allocate nothing.
    let firstKey = keyRanges.count
    defer { keyRanges.removeSubrange(firstKey...) }
    while true {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
        throw error("expected a string key in an object")
      }
      let keyOffset = index
      guard let key = try checkString(), keyRanges.count - firstKey < Self.pairwiseKeyLimit else {
        // A key that is not plain, or many keys: the building parser decides.
        index = start
        depth = startDepth
        _ = try parseObject()
        outline = nil
        return
      }
      skipWhitespace()
      guard consume(UInt8(ascii: ":")) else { throw error("expected ':' after an object key") }
      skipWhitespace()
      let isString = index < bytes.count && bytes[index] == UInt8(ascii: "\"")
      let plainString = isString ? try checkString() : nil
      if !isString { try checkValue() }
      // After the value, as `parseMembers` does, so that the first error is the same one.
      if keyRanges[firstKey...].contains(where: { bytes[$0].elementsEqual(bytes[key]) }) {
        index = keyOffset
        throw error("duplicate key \"\(String(decoding: UnsafeBufferPointer(rebasing: bytes[key]), as: UTF8.self))\" in an object")
      }
      keyRanges.append(key)
      outline?.add(key: key, plainString: plainString, isString: isString, in: bytes)
      skipWhitespace()
      if consume(UInt8(ascii: ",")) { continue }
      if consume(UInt8(ascii: "}")) { break }
      throw error("expected ',' or '}' after an object member")
    }
    depth -= 1
  }

  private mutating func checkObject() throws(JSONParseError) {
    var noOutline: ObjectOutline?
    try checkObject(outline: &noOutline)
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

/// What names an object as a screen (`ScreenName.of`), gathered from its bytes while it is
/// checked: how many members it has, its first key, and its `name` and `type` strings.
struct ObjectOutline {
  private var count = 0
  private var firstKey: Range<Int>?
  private var name: Range<Int>?
  private var type: Range<Int>?
  /// False once a `name` or `type` string had escapes or other UTF-8, so that only the
  /// building parser can read it.
  private var plain = true

  /// Counts a member: its key, and its value's bytes when the value is a plain string.
  mutating func add(key: Range<Int>, plainString: Range<Int>?, isString: Bool, in bytes: UnsafeBufferPointer<UInt8>) {
    count += 1
    if firstKey == nil { firstKey = key }
    let keyBytes = bytes[key]
    let wanted = keyBytes.elementsEqual("name".utf8) ? \ObjectOutline.name : keyBytes.elementsEqual("type".utf8) ? \ObjectOutline.type : nil
    guard let wanted, isString else { return }
    if let plainString { self[keyPath: wanted] = plainString } else { plain = false }
  }

  /// The screen name, or `nil` when the bytes alone cannot tell it.
  func screenName(in bytes: UnsafeBufferPointer<UInt8>) -> String? {
    guard plain else { return nil }
    func text(_ range: Range<Int>?) -> String? {
      range.map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) }
    }
    return ScreenName.named(memberCount: count, onlyKey: text(firstKey), name: text(name), type: text(type))
  }
}
