/// The JSON Canonicalization Scheme of RFC 8785: one exact byte sequence per JSON value.
///
/// The hash chain hashes these bytes, so every platform that follows the RFC computes the same
/// hash for the same event. The rules: no whitespace; object members sorted by the UTF-16 code
/// units of their keys; strings with only the mandatory escapes; numbers printed the way
/// ECMAScript's `Number.prototype.toString` prints them.
extension JSONValue {
  /// The canonical UTF-8 bytes of this value.
  package var canonicalBytes: [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(64)
    CanonicalJSON.write(self, to: &output)
    return output
  }

  /// The canonical text of this value.
  public var canonicalString: String {
    String(decoding: canonicalBytes, as: UTF8.self)
  }
}

/// The writer behind `JSONValue.canonicalBytes`.
package enum CanonicalJSON {
  package static func write(_ value: JSONValue, to output: inout [UInt8]) {
    switch value {
    case .null: output.append(contentsOf: "null".utf8)
    case .bool(let bool): output.append(contentsOf: (bool ? "true" : "false").utf8)
    case .number(let number): writeNumber(number, to: &output)
    case .string(let string): writeString(string, to: &output)
    case .array(let elements):
      output.append(UInt8(ascii: "["))
      for (position, element) in elements.enumerated() {
        if position > 0 { output.append(UInt8(ascii: ",")) }
        write(element, to: &output)
      }
      output.append(UInt8(ascii: "]"))
    case .object(let members):
      output.append(UInt8(ascii: "{"))
      // One member (the shape of a Swift enum case) needs no sorting.
      if members.count == 1, let only = members.first {
        writeString(only.key, to: &output)
        output.append(UInt8(ascii: ":"))
        write(only.value, to: &output)
        output.append(UInt8(ascii: "}"))
        return
      }
      let keys = members.keys.sorted { $0.utf16.lexicographicallyPrecedes($1.utf16) }
      for (position, key) in keys.enumerated() {
        if position > 0 { output.append(UInt8(ascii: ",")) }
        writeString(key, to: &output)
        output.append(UInt8(ascii: ":"))
        if let member = members[key] { write(member, to: &output) }
      }
      output.append(UInt8(ascii: "}"))
    }
  }

  /// Appends a string's canonical text. Inlinable: the model's canonical writer calls it for
  /// every string it writes.
  @inlinable package static func writeString(_ string: String, to output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    // Most strings (screen names, keys, ids) need no escape: copy them whole.
    let copied = string.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
      guard !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
        return false
      }
      output.append(contentsOf: bytes)
      return true
    }
    if copied == true {
      output.append(UInt8(ascii: "\""))
      return
    }
    for byte in string.utf8 {
      switch byte {
      case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
      case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
      case 0x08: output.append(contentsOf: #"\b"#.utf8)
      case 0x09: output.append(contentsOf: #"\t"#.utf8)
      case 0x0A: output.append(contentsOf: #"\n"#.utf8)
      case 0x0C: output.append(contentsOf: #"\f"#.utf8)
      case 0x0D: output.append(contentsOf: #"\r"#.utf8)
      case 0..<0x20:
        output.append(contentsOf: #"\u00"#.utf8)
        output.append(hexDigit(byte >> 4))
        output.append(hexDigit(byte & 0x0F))
      default: output.append(byte)
      }
    }
    output.append(UInt8(ascii: "\""))
  }

  /// A number as `format` spells it, with the common case (an integer up to 2^53) written
  /// digit by digit into the buffer, without an intermediate `String`.
  package static func writeNumber(_ number: Double, to output: inout [UInt8]) {
    guard abs(number) <= JSONParser.maximumExactInteger, number.rounded(.towardZero) == number else {
      output.append(contentsOf: format(number).utf8)
      return
    }
    DecimalDigits.append(Int64(number), to: &output)
  }

  @usableFromInline static func hexDigit(_ nibble: UInt8) -> UInt8 {
    nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
  }

  /// Formats a finite double as ECMAScript's `Number.prototype.toString` does (RFC 8785 §3.2.2.3).
  ///
  /// Swift's `description` already finds the shortest digit string that round-trips (the same
  /// digits ECMAScript asks for); this only lays those digits out by ECMAScript's rules.
  package static func format(_ number: Double) -> String {
    if number == 0 { return "0" }  // also -0
    guard number.isFinite else { return "null" }  // unreachable: parser and encoder refuse these
    // Integers up to 2^53 print as all their digits under ECMAScript's rules too (every one of
    // them is a double, so no shorter digits name it): skip the shortest-digits detour. Above
    // 2^53 the shortest digits can be fewer, padded with zeros: 2^59 is 576460752303423500.
    if abs(number) <= JSONParser.maximumExactInteger, number.rounded(.towardZero) == number {
      return String(Int64(number))
    }
    let (digits, pointPosition) = decimalDigits(of: abs(number))
    let sign = number < 0 ? "-" : ""
    let k = digits.count
    let n = pointPosition
    if k <= n && n <= 21 {
      return sign + digits + String(repeating: "0", count: n - k)
    }
    if 0 < n && n <= 21 {
      let split = digits.index(digits.startIndex, offsetBy: n)
      return sign + digits[..<split] + "." + digits[split...]
    }
    if -6 < n && n <= 0 {
      return sign + "0." + String(repeating: "0", count: -n) + digits
    }
    let exponent = n - 1
    let exponentText = (exponent < 0 ? "-" : "+") + String(abs(exponent))
    if k == 1 {
      return sign + digits + "e" + exponentText
    }
    let first = digits.prefix(1)
    return sign + first + "." + digits.dropFirst() + "e" + exponentText
  }

  /// The significant digits of a positive finite double and where the decimal point goes:
  /// value = 0.d1d2...dk × 10^pointPosition.
  package static func decimalDigits(of value: Double) -> (digits: String, pointPosition: Int) {
    let text = value.description  // e.g. "123.0", "0.001", "1e-07", "1.5e+20"
    var mantissa = Substring(text)
    var exponent = 0
    if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
      mantissa = text[..<e]
      exponent = Int(text[text.index(after: e)...]) ?? 0
    }
    let integerPart: Substring
    let fractionPart: Substring
    if let dot = mantissa.firstIndex(of: ".") {
      integerPart = mantissa[..<dot]
      fractionPart = mantissa[mantissa.index(after: dot)...]
    } else {
      integerPart = mantissa
      fractionPart = ""
    }
    var digits = Array(integerPart + fractionPart)
    var pointPosition = integerPart.count + exponent
    while digits.first == "0" {
      digits.removeFirst()
      pointPosition -= 1
    }
    while digits.last == "0" { digits.removeLast() }
    return (String(digits), pointPosition)
  }
}
