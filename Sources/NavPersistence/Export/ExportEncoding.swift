import Foundation
import NavCore

/// Turns export rows into CSV (RFC 4180) or JSON Lines text.
public enum ExportEncoding {
  /// The CSV header line, or `nil` for JSON Lines.
  public static func header(_ table: ExportTable, format: ExportFormat) -> String? {
    format == .csv ? table.columns.map(csvField).joined(separator: ",") + "\r\n" : nil
  }

  /// One row as a line, with its line break.
  public static func line(_ row: ExportRow, table: ExportTable, format: ExportFormat) -> String {
    switch format {
    case .csv:
      return row.values.map { csvField(text(of: $0)) }.joined(separator: ",") + "\r\n"
    case .jsonl:
      if table == .events, let event = row.event, let text = try? WireFormat.canonicalString(event) {
        return text + "\n"
      }
      var members: [String: JSONValue] = [:]
      for (column, value) in zip(table.columns, row.values) {
        members[column] = json(of: value)
      }
      return JSONValue.object(members).canonicalString + "\n"
    }
  }

  /// A field quoted when it holds a comma, a quote or a line break; quotes doubled (RFC 4180).
  public static func csvField(_ text: String) -> String {
    guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
    return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  static func text(of value: ExportValue) -> String {
    switch value {
    case .text(let text): text
    case .integer(let integer): String(integer)
    case .time(let time): time.rfc3339
    case .null: ""
    }
  }

  static func json(of value: ExportValue) -> JSONValue {
    switch value {
    case .text(let text): .string(text)
    case .integer(let integer): .number(Double(integer))
    case .time(let time): .string(time.rfc3339)
    case .null: .null
    }
  }
}
