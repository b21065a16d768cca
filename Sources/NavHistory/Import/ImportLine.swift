import NavCore

/// One line of JSON Lines as an import reads it, and as the collector reads an upload's: the
/// same rules for both.
package enum ImportLine {
  /// The event `bytes` hold, or `nil` for a blank line (spaces and tabs only), which both skip.
  /// The first line may begin with a UTF-8 byte order mark, which some editors write: it is not
  /// JSON, and not data either.
  package static func event(from bytes: ArraySlice<UInt8>, isFirst: Bool) throws(WireFormatError) -> AnyEvent? {
    if isBlank(bytes, isFirst: isFirst) { return nil }
    return try nonBlankEvent(from: bytes, isFirst: isFirst)
  }

  /// The event a line known not to be blank holds (an import checks that on its reading thread,
  /// and decodes on another).
  package static func nonBlankEvent(from bytes: ArraySlice<UInt8>, isFirst: Bool) throws(WireFormatError) -> AnyEvent {
    // Straight to the decoder of a buffer: through the one of any collection, each line paid
    // for a witness call and a generic result's metadata, a tenth of its decoding.
    let decoded = content(of: bytes, isFirst: isFirst).withUnsafeBufferPointer { buffer in
      Result { () throws(WireFormatError) in try WireFormat.decode(AnyEvent.self, from: buffer) }
    }
    return try decoded.get()
  }

  /// Whether the line holds nothing (spaces and tabs, after the first line's byte order mark).
  package static func isBlank(_ bytes: ArraySlice<UInt8>, isFirst: Bool) -> Bool {
    content(of: bytes, isFirst: isFirst).allSatisfy { $0 == 0x20 || $0 == 0x09 }
  }

  /// The line without the byte order mark the first line may begin with.
  private static func content(of bytes: ArraySlice<UInt8>, isFirst: Bool) -> ArraySlice<UInt8> {
    isFirst && bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes
  }
}

extension ImportLine {
  /// `line 3: ...`; for JSON that does not parse, `line 3, column 7: invalid JSON: ...` rather
  /// than naming the line twice (a line of JSON Lines is always the JSON's line 1).
  package static func describe(line: Int, _ error: WireFormatError) -> String {
    let prefix = "invalid JSON at line 1, column "
    guard error.field.isEmpty, error.message.hasPrefix(prefix) else { return "line \(line): \(error)" }
    let rest = error.message.dropFirst(prefix.count)
    guard let colon = rest.firstIndex(of: ":") else { return "line \(line): \(error)" }
    return "line \(line), column \(rest[..<colon]): invalid JSON\(rest[colon...])"
  }
}
