import Foundation
import NavCore
@_spi(Internals) import NavHistory
import NavJSON

/// Turns export rows into CSV (RFC 4180) or JSON Lines text, or the moments of the event-shaped
/// formats into their calls and records.
package enum ExportEncoding {
  /// The CSV header line, or `nil` for JSON Lines.
  package static func header(_ table: ExportTable, format: ExportFormat) -> String? {
    format == .csv ? table.columns.map(csvField).joined(separator: ",") + "\r\n" : nil
  }

  /// One row as a line, with its line break.
  package static func line(_ row: ExportRow, table: ExportTable, format: ExportFormat) -> String {
    var bytes: [UInt8] = []
    append(row, table: table, format: format, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends one row as a line, with its line break, to a byte buffer (what exports stream).
  package static func append(_ row: ExportRow, table: ExportTable, format: ExportFormat, to bytes: inout [UInt8]) {
    switch format {
    case .csv:
      for (position, value) in row.values.enumerated() {
        if position > 0 { bytes.append(UInt8(ascii: ",")) }
        appendCSVField(value, to: &bytes)
      }
      bytes.append(0x0D)
      bytes.append(0x0A)
    case .jsonl:
      bytes.append(contentsOf: jsonLine(row, table: table).utf8)
    case .segment:
      if let record = row.navigation { bytes.append(contentsOf: SegmentCall.line(record).utf8) }
    case .otlp:
      if let record = row.navigation { bytes.append(contentsOf: OTLPLogRecord.line(record).utf8) }
    }
  }

  private static func jsonLine(_ row: ExportRow, table: ExportTable) -> String {
    if table == .events, let event = row.event, let text = try? WireFormat.canonicalString(event) {
      return text + "\n"
    }
    // Keys in the CSV's column order, not sorted: a row reads the same in both formats.
    var line = "{"
    for (position, (column, value)) in zip(table.columns, row.values).enumerated() {
      if position > 0 { line += "," }
      line += JSONValue.string(column).canonicalString + ":" + json(of: value).canonicalString
    }
    return line + "}\n"
  }

  /// A field quoted when it holds a comma, a quote or a line break, quotes doubled (RFC 4180);
  /// one that a spreadsheet would take as a formula is quoted and begins with `'`.
  package static func csvField(_ text: String) -> String {
    var bytes: [UInt8] = []
    appendCSVField(text, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// One value as a CSV field. Integers and times never need quoting: their digits go straight
  /// into the buffer.
  package static func appendCSVField(_ value: ExportValue, to bytes: inout [UInt8]) {
    switch value {
    case .text(let text): appendCSVField(text, to: &bytes)
    case .integer(let integer): DecimalDigits.append(integer, to: &bytes)
    case .time(let time): time.appendRFC3339(to: &bytes)
    case .boolean(let flag): bytes.append(contentsOf: (flag ? "true" : "false").utf8)
    case .null: break
    }
  }

  /// Text read from the store as a CSV field. ASCII bytes are written as they are; anything else
  /// goes through `String`, which repairs invalid UTF-8 exactly as reading the column as a
  /// `String` does, so both ways of exporting write the same bytes.
  package static func appendCSVField(storedText utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
    if utf8.allSatisfy({ $0 < 0x80 }) {
      appendCSVField(utf8, to: &bytes)
    } else {
      appendCSVField(String(decoding: utf8, as: UTF8.self), to: &bytes)
    }
  }

  /// `csvField`, byte by byte into a buffer: no `Character` walking, no bridging.
  package static func appendCSVField(_ text: String, to bytes: inout [UInt8]) {
    var text = text
    text.withUTF8 { utf8 in appendCSVField(utf8, to: &bytes) }
  }

  /// `csvField` of UTF-8 bytes, into a buffer.
  package static func appendCSVField(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
    let formula = utf8.first.map(startsAFormula) ?? false
    guard formula || utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else {
      bytes.append(contentsOf: utf8)
      return
    }
    bytes.append(0x22)
    // A spreadsheet takes a cell that begins so as a formula (`=HYPERLINK(...)` in a screen
    // name from a device): a quote before it makes the cell text, as OWASP's rule for CSV
    // injection says. Analysts who need the exact value read it from the JSON Lines.
    if formula { bytes.append(0x27) }
    for byte in utf8 {
      if byte == 0x22 { bytes.append(0x22) }
      bytes.append(byte)
    }
    bytes.append(0x22)
  }

  /// Whether a text field beginning with `byte` would be a formula in a spreadsheet: `=`, `+`,
  /// `-`, `@`, a tab or a carriage return.
  static func startsAFormula(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "=") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "@")
      || byte == 0x09 || byte == 0x0D
  }

  static func json(of value: ExportValue) -> JSONValue {
    switch value {
    case .text(let text): .string(text)
    case .integer(let integer): .number(Double(integer))
    case .time(let time): .string(time.rfc3339)
    case .boolean(let flag): .bool(flag)
    case .null: .null
    }
  }
}
