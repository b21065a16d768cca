/// How much of a member's value `JSONParser.parseDocumentMembers(_:reading:)` builds. Whatever
/// is not built is still checked, with the same rules and the same errors, and stands in the
/// member list as `null`: the reader that chose not to build it does not read it.
package enum MemberReading {
  /// The whole value.
  case whole
  /// Strings, numbers and literals; an array or object is checked only.
  case scalar
  /// An object's name by `namer`'s rule, as a string, found while checking the object: its
  /// members are not built. Any other value as `.scalar`.
  case name(ObjectNamer)
  /// Nothing: the value is checked only.
  case checked
}

/// A rule that names a JSON object from a few of its members, so a reader can name an object
/// while checking its bytes, without building it: its member count, its first key, and the
/// string values of the two keys it watches.
///
/// A class, and two fixed keys rather than a list: a reader names an object per row of an
/// export, so handing the rule over is one reference and checking an object allocates nothing.
package final class ObjectNamer: Sendable {
  /// The keys whose string values the rule reads, as UTF-8.
  let firstWatchedKey: [UInt8]
  let secondWatchedKey: [UInt8]
  /// The name from the member count, the first key and the watched keys' strings (`nil` where
  /// a key is missing or not a string).
  let fromOutline: @Sendable (_ memberCount: Int, _ firstKey: String?, _ first: String?, _ second: String?) -> String
  /// The name of a built object (one whose bytes were not plain enough to read in place).
  let fromValue: @Sendable (JSONValue) -> String

  /// A rule reading `watching`' two keys; `fromOutline` and `fromValue` must agree on every
  /// object.
  package init(
    watching keys: (String, String),
    fromOutline:
      @escaping @Sendable (_ memberCount: Int, _ firstKey: String?, _ first: String?, _ second: String?) -> String,
    fromValue: @escaping @Sendable (JSONValue) -> String
  ) {
    firstWatchedKey = Array(keys.0.utf8)
    secondWatchedKey = Array(keys.1.utf8)
    self.fromOutline = fromOutline
    self.fromValue = fromValue
  }
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
    case .name(let namer) where byte == UInt8(ascii: "{"):
      let start = index
      let startDepth = depth
      var outline: ObjectOutline? = ObjectOutline()
      try checkObject(outline: &outline, watching: namer)
      if let outline, let name = outline.name(by: namer, in: bytes) { return .string(name) }
      // Checked, but not plainly enough to name from its bytes: built, then named.
      index = start
      depth = startDepth
      return .string(namer.fromValue(try parseObject()))
    case .scalar, .name:
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

  /// `outline`, when given, is filled with what `namer` reads; it is set to `nil` when the
  /// object is not plain enough for that (then the building parser names it).
  private mutating func checkObject(outline: inout ObjectOutline?, watching namer: ObjectNamer?) throws(JSONParseError)
  {
    let start = index
    let startDepth = depth
    // The keys' byte ranges, compared as bytes: for plain keys that is string equality. They
    // are kept on one stack for the whole document, so nested objects allocate nothing.
    let firstKey = keyRanges.count
    defer { keyRanges.removeSubrange(firstKey...) }
    try readContainer(closing: UInt8(ascii: "}")) { parser throws(JSONParseError) in
      let keyOffset = parser.index
      guard let key = try parser.checkString(), parser.keyRanges.count - firstKey < Self.pairwiseKeyLimit else {
        // A key that is not plain, or many keys: the building parser decides.
        parser.index = start
        parser.depth = startDepth
        _ = try parser.parseObject()
        outline = nil
        return false
      }
      parser.skipWhitespace()
      guard parser.consume(UInt8(ascii: ":")) else { throw parser.error("expected ':' after an object key") }
      parser.skipWhitespace()
      let isString = parser.index < parser.bytes.count && parser.bytes[parser.index] == UInt8(ascii: "\"")
      let plainString = isString ? try parser.checkString() : nil
      if !isString { try parser.checkValue() }
      // After the value, as `parseMembers` does, so that the first error is the same one.
      let bytes = parser.bytes
      if parser.keyRanges[firstKey...].contains(where: { bytes[$0].elementsEqual(bytes[key]) }) {
        parser.index = keyOffset
        throw parser.error(
          "duplicate key \"\(String(decoding: UnsafeBufferPointer(rebasing: bytes[key]), as: UTF8.self))\" in an object"
        )
      }
      parser.keyRanges.append(key)
      if let namer { outline?.add(key: key, plainString: plainString, isString: isString, watching: namer, in: bytes) }
      return true
    }
  }

  private mutating func checkObject() throws(JSONParseError) {
    var noOutline: ObjectOutline?
    try checkObject(outline: &noOutline, watching: nil)
  }

  private mutating func checkArray() throws(JSONParseError) {
    try readContainer(closing: UInt8(ascii: "]")) { parser throws(JSONParseError) in
      try parser.checkValue()
      return true
    }
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

/// What an `ObjectNamer` reads of an object, gathered from its bytes while it is checked: how
/// many members it has, its first key, and its watched keys' strings.
struct ObjectOutline {
  private var count = 0
  private var firstKey: Range<Int>?
  private var first: Range<Int>?
  private var second: Range<Int>?
  /// False once a watched string had escapes or other UTF-8, so that only the building parser
  /// can read it.
  private var plain = true

  /// Counts a member: its key, and its value's bytes when the key is watched and the value is
  /// a plain string.
  mutating func add(
    key: Range<Int>, plainString: Range<Int>?, isString: Bool, watching namer: ObjectNamer,
    in bytes: UnsafeBufferPointer<UInt8>
  ) {
    count += 1
    if firstKey == nil { firstKey = key }
    guard isString else { return }
    let keyBytes = bytes[key]
    let isFirst = keyBytes.elementsEqual(namer.firstWatchedKey)
    guard isFirst || keyBytes.elementsEqual(namer.secondWatchedKey) else { return }
    guard let plainString else {
      plain = false
      return
    }
    if isFirst { first = plainString } else { second = plainString }
  }

  /// The object's name by `namer`'s rule, or `nil` when the bytes alone cannot tell it.
  func name(by namer: ObjectNamer, in bytes: UnsafeBufferPointer<UInt8>) -> String? {
    guard plain else { return nil }
    func text(_ range: Range<Int>?) -> String? {
      range.map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) }
    }
    return namer.fromOutline(count, text(firstKey), text(first), text(second))
  }
}
