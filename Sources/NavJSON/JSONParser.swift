/// A strict RFC 8259 parser producing `JSONValue`.
///
/// Strict because the wire format is a contract: duplicate keys, lone surrogates, invalid UTF-8,
/// non-finite numbers and integer literals a double cannot hold exactly are all refused rather
/// than silently altered, since any of them would make two stores disagree about an event's
/// hash. (A literal with a fraction or exponent is a decimal, rounded like `0.1` is.) Keys that
/// differ only in Unicode normalization count as duplicates.
/// Nesting is bounded so that hostile input cannot exhaust the stack.
package struct JSONParser {
  /// How deeply arrays and objects may nest. A coordinator tree 100 levels deep needs about 300.
  package static let maximumDepth = 512

  /// 2^53: every integer up to this magnitude is a double exactly; beyond it, only some are.
  package static let maximumExactInteger: Double = 9_007_199_254_740_992

  /// Parses one JSON document from UTF-8 bytes.
  package static func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
    // Contiguous input (an array, a SQLite column) is read in place, not copied first.
    let parsed =
      bytes.withContiguousStorageIfAvailable(parseResult)
      ?? Array(bytes).withUnsafeBufferPointer(parseResult)
    return try parsed.get()
  }

  /// Reads back canonical bytes NavStore wrote itself: every number in them is the shortest
  /// text of a double, which reads back as that double, so large integers (a double such as
  /// 2^63, printed `9223372036854776000`) are not checked for exactness as input is.
  package static func parseOwnCanonical(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
    let parsed = bytes.withUnsafeBufferPointer { buffer -> Result<JSONValue, JSONParseError> in
      var parser = JSONParser(buffer)
      parser.checksIntegerExactness = false
      do throws(JSONParseError) {
        return .success(try parser.parseDocument())
      } catch {
        return .failure(error)
      }
    }
    return try parsed.get()
  }

  private static func parseResult(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, JSONParseError> {
    var parser = JSONParser(bytes)
    do throws(JSONParseError) {
      return .success(try parser.parseDocument())
    } catch {
      return .failure(error)
    }
  }

  /// Parses one JSON document, giving a top-level object as its members in document order
  /// rather than as a dictionary: a wire-format reader goes through them once, and building
  /// (allocating, hashing) a dictionary for that costs more than the rest of the parse.
  /// Checks exactly what `parse` checks, duplicate keys included.
  ///
  /// `reading` says, key by key, how much of each member's value to build; a reader that needs
  /// a few members of a large object (the export's headline of an operation) builds only
  /// those, and the document is refused or accepted exactly as when it is built whole.
  package static func parseDocumentMembers(
    _ bytes: UnsafeBufferPointer<UInt8>, reading: ((String) -> MemberReading)? = nil
  ) throws(JSONParseError) -> ParsedDocument {
    var parser = JSONParser(bytes)
    parser.skipWhitespace()
    guard parser.index < bytes.count, bytes[parser.index] == UInt8(ascii: "{") else {
      return .value(try parser.parseDocument())
    }
    var members = MemberList()
    try parser.parseMembers(reading: reading) { key, value in members.add(key, value) }
    try parser.finishDocument()
    return .members(members.members)
  }

  /// An object's members in document order, refusing a repeated key as a dictionary would.
  struct MemberList {
    private(set) var members: [(String, JSONValue)] = []
    /// The keys, once the object is large.
    private var keys: Set<String>?

    init() { members.reserveCapacity(4) }

    /// Adds a member; false when its key is already there.
    mutating func add(_ key: String, _ value: JSONValue) -> Bool {
      // An object of the wire format has a handful of members: comparing is cheaper than
      // hashing, until there are many.
      if keys == nil, members.count >= 16 { keys = Set(members.map(\.0)) }
      if keys != nil {
        guard keys?.insert(key).inserted == true else { return false }
      } else if members.contains(where: { $0.0 == key }) {
        return false
      }
      members.append((key, value))
      return true
    }
  }

  /// A parsed document: an object's members, or any other value.
  package enum ParsedDocument {
    case members([(String, JSONValue)])
    case value(JSONValue)
  }

  /// Parses one JSON document from a string.
  package static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
    try parse(Array(text.utf8))
  }

  /// The input, borrowed for the parse: every value made from it is copied out.
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0
  var depth = 0
  private var checksIntegerExactness = true
  /// The keys of the objects being checked, innermost last (see `checkObject`).
  var keyRanges: [Range<Int>] = []

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  fileprivate mutating func parseDocument() throws(JSONParseError) -> JSONValue {
    skipWhitespace()
    let value = try parseValue()
    try finishDocument()
    return value
  }

  /// After the document's one value: only whitespace may follow.
  mutating func finishDocument() throws(JSONParseError) {
    skipWhitespace()
    if index < bytes.count {
      throw error("unexpected text after the JSON value")
    }
  }

  // MARK: Values

  mutating func parseValue() throws(JSONParseError) -> JSONValue {
    guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    default: return try parseLiteralOrNumber()
    }
  }

  /// `true`, `false`, `null` or a number: the values that never need the heap.
  mutating func parseLiteralOrNumber() throws(JSONParseError) -> JSONValue {
    switch bytes[index] {
    case UInt8(ascii: "t"):
      try expectLiteral("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expectLiteral("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try expectLiteral("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
    default: throw error("unexpected character \(describe(bytes[index])), expected a value")
    }
  }

  mutating func enterContainer() throws(JSONParseError) {
    depth += 1
    if depth > Self.maximumDepth {
      throw error("nesting deeper than \(Self.maximumDepth) levels")
    }
  }

  mutating func parseObject() throws(JSONParseError) -> JSONValue {
    var members: [String: JSONValue] = [:]
    try parseMembers { key, value in members.updateValue(value, forKey: key) == nil }
    return .object(members)
  }

  /// Parses an object's members, handing each to `add`, which says whether the key was new;
  /// a repeated key is refused, pointing at its second occurrence.
  /// `reading`, when given, chooses how each member's value is read (see `MemberReading`).
  mutating func parseMembers(
    reading: ((String) -> MemberReading)? = nil, _ add: (String, JSONValue) -> Bool
  ) throws(JSONParseError) {
    try readContainer(closing: UInt8(ascii: "}")) { parser throws(JSONParseError) in
      let keyOffset = parser.index
      let key = try parser.parseString()
      parser.skipWhitespace()
      guard parser.consume(UInt8(ascii: ":")) else { throw parser.error("expected ':' after an object key") }
      parser.skipWhitespace()
      let value = if let reading { try parser.parseValue(reading(key)) } else { try parser.parseValue() }
      if !add(key, value) {
        parser.index = keyOffset
        throw parser.error("duplicate key \"\(key)\" in an object")
      }
      return true
    }
  }

  /// The punctuation of an array or an object, written once for every reader of one: the
  /// opening bracket, the nesting depth, the commas, the closing bracket, and their errors.
  /// `item` reads one element, or one member from its key's opening quote, and returns false
  /// when it has read the whole container itself (the checking path handing an object over to
  /// the building one).
  mutating func readContainer(
    closing: UInt8, _ item: (inout JSONParser) throws(JSONParseError) -> Bool
  ) throws(JSONParseError) {
    let isObject = closing == UInt8(ascii: "}")
    try enterContainer()
    index += 1
    skipWhitespace()
    if consume(closing) {
      depth -= 1
      return
    }
    while true {
      skipWhitespace()
      if isObject, index >= bytes.count || bytes[index] != UInt8(ascii: "\"") {
        throw error("expected a string key in an object")
      }
      guard try item(&self) else { return }
      skipWhitespace()
      if consume(UInt8(ascii: ",")) { continue }
      if consume(closing) { break }
      throw error(
        isObject ? "expected ',' or '}' after an object member" : "expected ',' or ']' after an array element")
    }
    depth -= 1
  }

  private mutating func parseArray() throws(JSONParseError) -> JSONValue {
    var elements: [JSONValue] = []
    try readContainer(closing: UInt8(ascii: "]")) { parser throws(JSONParseError) in
      elements.append(try parser.parseValue())
      return true
    }
    return .array(elements)
  }

  // MARK: Strings

  mutating func parseString() throws(JSONParseError) -> String {
    index += 1  // opening quote
    let start = index
    // Fast path: no escapes, so the bytes between the quotes are the string.
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let string = try makeString(UnsafeBufferPointer(rebasing: bytes[start..<index]), at: start)
        index += 1
        return string
      }
      if byte == UInt8(ascii: "\\") { break }
      if byte < 0x20 { throw error("control character \(describe(byte)) in a string must be escaped") }
      index += 1
    }
    var scratch = Array(bytes[start..<index])
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        let string = try scratch.withUnsafeBufferPointer { buffer throws(JSONParseError) in
          try makeString(buffer, at: start)
        }
        index += 1
        return string
      case UInt8(ascii: "\\"):
        try parseEscape(into: &scratch)
      case 0..<0x20:
        throw error("control character \(describe(byte)) in a string must be escaped")
      default:
        scratch.append(byte)
        index += 1
      }
    }
    throw error("unterminated string")
  }

  private func makeString(_ buffer: UnsafeBufferPointer<UInt8>, at start: Int) throws(JSONParseError) -> String {
    // ASCII (nearly every key and screen name) is valid UTF-8 as it is; only other bytes need
    // the validating initializer, which is far slower.
    let string =
      buffer.allSatisfy({ $0 < 0x80 })
      ? String(decoding: buffer, as: UTF8.self) : String(validating: buffer, as: UTF8.self)
    guard let string else {
      throw JSONParser.error("invalid UTF-8 in a string", at: start, in: bytes)
    }
    return string
  }

  private mutating func parseEscape(into scratch: inout [UInt8]) throws(JSONParseError) {
    index += 1  // backslash
    guard index < bytes.count else { throw error("unterminated escape sequence") }
    let code = bytes[index]
    index += 1
    switch code {
    case UInt8(ascii: "\""): scratch.append(UInt8(ascii: "\""))
    case UInt8(ascii: "\\"): scratch.append(UInt8(ascii: "\\"))
    case UInt8(ascii: "/"): scratch.append(UInt8(ascii: "/"))
    case UInt8(ascii: "b"): scratch.append(0x08)
    case UInt8(ascii: "f"): scratch.append(0x0C)
    case UInt8(ascii: "n"): scratch.append(0x0A)
    case UInt8(ascii: "r"): scratch.append(0x0D)
    case UInt8(ascii: "t"): scratch.append(0x09)
    case UInt8(ascii: "u"):
      let scalar = try parseUnicodeEscape()
      UTF8.encode(scalar) { scratch.append($0) }
    default:
      index -= 2
      throw error("invalid escape sequence \\\(describeRaw(code))")
    }
  }

  /// Reads the hex digits after `\u`, combining a surrogate pair into one scalar.
  private mutating func parseUnicodeEscape() throws(JSONParseError) -> Unicode.Scalar {
    let escapeStart = index - 2
    let first = try parseHex4()
    if (0xD800...0xDBFF).contains(first) {
      guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
        bytes[index + 1] == UInt8(ascii: "u")
      else {
        index = escapeStart
        throw error("lone high surrogate \\u\(hex(first)) in a string")
      }
      index += 2
      let second = try parseHex4()
      guard (0xDC00...0xDFFF).contains(second) else {
        index = escapeStart
        throw error("high surrogate \\u\(hex(first)) not followed by a low surrogate")
      }
      let value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
      guard let scalar = Unicode.Scalar(value) else {
        index = escapeStart
        throw error("invalid surrogate pair in a string")
      }
      return scalar
    }
    guard let scalar = Unicode.Scalar(first) else {
      index = escapeStart
      throw error("lone low surrogate \\u\(hex(first)) in a string")
    }
    return scalar
  }

  private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
    guard index + 4 <= bytes.count else { throw error("incomplete \\u escape") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
      default: throw error("invalid hex digit \(describe(byte)) in a \\u escape")
      }
      value = value << 4 | digit
      index += 1
    }
    return value
  }

  // MARK: Numbers

  private mutating func parseNumber() throws(JSONParseError) -> Double {
    let start = index
    var isInteger = true
    _ = consume(UInt8(ascii: "-"))
    if consume(UInt8(ascii: "0")) {
      if index < bytes.count, isDigit(bytes[index]) {
        throw error("a number may not have leading zeros")
      }
    } else {
      guard consumeDigits() else { throw error("expected a digit in a number") }
    }
    if consume(UInt8(ascii: ".")) {
      isInteger = false
      guard consumeDigits() else { throw error("expected a digit after the decimal point") }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      isInteger = false
      index += 1
      if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
      guard consumeDigits() else { throw error("expected a digit in the exponent") }
    }
    // A plain integer of up to 15 digits (ids, counts, indices: most numbers) is exactly a
    // double: its digits are read directly, without a string and a decimal conversion.
    let digitCount = index - start - (bytes[start] == UInt8(ascii: "-") ? 1 : 0)
    if isInteger, digitCount <= 15 {
      var magnitude: Int64 = 0
      for byte in bytes[(index - digitCount)..<index] { magnitude = magnitude * 10 + Int64(byte &- UInt8(ascii: "0")) }
      let value = Double(magnitude)
      return bytes[start] == UInt8(ascii: "-") ? -value : value
    }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      index = start
      throw error("number \(text) is out of range")
    }
    // An integer literal must be exactly the double it becomes (past 2^53, most are not), or
    // be that double's canonical text: RFC 8785 writes a large double with its shortest
    // digits and zeros after them (2^60 as 1152921504606847000), and what the canonical
    // writer writes must read back (found by fuzzing: a store could not read its own bytes).
    let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
    if checksIntegerExactness, isInteger, abs(value) >= Self.maximumExactInteger,
      digits != Self.exactDecimal(ofIntegral: abs(value)),
      !digits.utf8.elementsEqual(CanonicalJSON.format(abs(value)).utf8)
    {
      index = start
      throw error(
        "integer \(text) cannot be stored exactly (NavStore numbers are doubles; integers are exact up to ±2^53)")
    }
    return value
  }

  /// The exact decimal digits of a non-negative integral double, however large.
  static func exactDecimal(ofIntegral value: Double) -> String {
    if value < 9.2e18 { return String(UInt64(value)) }
    // value = significand × 2^shift, with a 53-bit integer significand.
    var limbs: [UInt64] = [value.significandBitPattern | (1 << 52)]  // base 10^9, little-endian
    var normalized: [UInt64] = []
    var remaining = limbs[0]
    while remaining > 0 {
      normalized.append(remaining % 1_000_000_000)
      remaining /= 1_000_000_000
    }
    limbs = normalized
    for _ in 0..<(Int(value.exponent) - 52) {
      var carry: UInt64 = 0
      for position in limbs.indices {
        let doubled = limbs[position] * 2 + carry
        limbs[position] = doubled % 1_000_000_000
        carry = doubled / 1_000_000_000
      }
      if carry > 0 { limbs.append(carry) }
    }
    var text = String(limbs.last ?? 0)
    for limb in limbs.dropLast().reversed() {
      let part = String(limb)
      text += String(repeating: "0", count: 9 - part.count) + part
    }
    return text
  }

  private mutating func consumeDigits() -> Bool {
    let start = index
    while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    return index > start
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  // MARK: Helpers

  private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
    let expected = literal.withUTF8Buffer { Array($0) }
    guard index + expected.count <= bytes.count,
      bytes[index..<index + expected.count].elementsEqual(expected)
    else {
      throw error("unexpected text, expected \(literal) (or any JSON value; a string needs its quotes)")
    }
    index += expected.count
  }

  mutating func consume(_ byte: UInt8) -> Bool {
    guard index < bytes.count, bytes[index] == byte else { return false }
    index += 1
    return true
  }

  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  private func describe(_ byte: UInt8) -> String {
    if byte >= 0x20 && byte < 0x7F { return "'\(describeRaw(byte))'" }
    return "0x" + hex(UInt32(byte), width: 2)
  }

  private func describeRaw(_ byte: UInt8) -> String {
    String(decoding: [byte], as: UTF8.self)
  }

  private func hex(_ value: UInt32, width: Int = 4) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }

  func error(_ message: String) -> JSONParseError {
    JSONParser.error(message, at: index, in: bytes)
  }

  private static func error(_ message: String, at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> JSONParseError {
    let clamped = min(offset, bytes.count)
    var line = 1
    var lineStart = 0
    for position in 0..<clamped where bytes[position] == 0x0A {
      line += 1
      lineStart = position + 1
    }
    return JSONParseError(offset: clamped, line: line, column: clamped - lineStart + 1, message: message)
  }
}
