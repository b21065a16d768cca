import NavCore

/// The events export's `op`, `screen` and `path` columns, read from a stored operation's text.
///
/// The general way parses the whole operation. Most stored operations have one of two exact
/// shapes, `{"op":"pop"}` and `{"op":"push","screen":...}`; for those only the screen is parsed
/// (when there is one), which is most of an export's time saved. The result is the same as the
/// general way's for every input (a property test compares them): the shapes are matched byte
/// for byte, and anything else takes the general way.
package enum OperationColumns {
  /// The columns, in export order: op name, screen name, path.
  package typealias Columns = (op: ExportValue, screen: ExportValue, path: ExportValue)

  package static func of(_ operation: [UInt8]) -> Columns {
    operation.withUnsafeBufferPointer(of)
  }

  /// The columns of an operation's bytes in place (a SQLite column's, during an export).
  package static func of(_ operation: UnsafeBufferPointer<UInt8>) -> Columns {
    shortcut(operation) ?? byParsing(operation)
  }

  /// The general way: parse the operation (an unreadable one gives empty columns).
  package static func byParsing(_ bytes: UnsafeBufferPointer<UInt8>) -> Columns {
    let members = (try? JSONParser.parse(bytes))?.objectValue ?? [:]
    return (
      members["op"]?.stringValue.map(ExportValue.text) ?? .null,
      members["screen"].map { .text(ScreenName.of($0)) } ?? .null,
      .text(members["path"]?.canonicalString ?? "[]")
    )
  }

  private static let namePrefix = Array(#"{"op":""#.utf8)
  private static let screenInfix = Array(#"","screen":"#.utf8)

  /// `{"op":"NAME"}` or `{"op":"NAME","screen":SCREEN}` with NAME made of ASCII letters, or
  /// `nil` for anything else.
  private static func shortcut(_ bytes: UnsafeBufferPointer<UInt8>) -> Columns? {
    guard bytes.count > namePrefix.count + 2, bytes.starts(with: namePrefix), bytes.last == UInt8(ascii: "}") else {
      return nil
    }
    var index = namePrefix.count
    while index < bytes.count, isLetter(bytes[index]) { index += 1 }
    let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[namePrefix.count..<index]), as: UTF8.self)
    guard !name.isEmpty, index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
    if index + 2 == bytes.count {
      return (.text(name), .null, .text("[]"))  // `"}` ends it: no other member
    }
    let rest = UnsafeBufferPointer(rebasing: bytes[index...])
    guard rest.starts(with: screenInfix) else { return nil }
    let screenBytes = UnsafeBufferPointer(rebasing: bytes[(index + screenInfix.count)..<(bytes.count - 1)])
    // Nested one level deeper than when parsed alone: stay far from the parser's depth limit,
    // so that the screen parses alone exactly when the whole operation does.
    guard screenBytes.count < 512, let screen = try? JSONParser.parse(screenBytes) else { return nil }
    return (.text(name), .text(ScreenName.of(screen)), .text("[]"))
  }

  private static func isLetter(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
  }
}
