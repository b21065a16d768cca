import Foundation

/// An export in CSV without its `received` column: the order in which a store received its
/// rows, which differs between two stores that hold the same history written in other batches
/// (a device's store and the collector's copy of it).
public func withoutReceived(csv bytes: [UInt8]) -> [UInt8] {
  Array(editingReceived(String(decoding: bytes, as: UTF8.self), { _ in nil }).utf8)
}

/// `withoutReceived(csv:)` of text.
public func withoutReceived(csv text: String) -> String { editingReceived(text, { _ in nil }) }

/// Output of a command with the order of arrival masked wherever it shows (a JSON row's
/// `received`, an export's `received` CSV column, the cursor an export prints), for comparing
/// what two stores hold: a file and PostgreSQL number their writes differently.
public func maskingReceived(_ text: String) -> String {
  let masked = text.replacingOccurrences(
    of: #""received":[0-9]+"#, with: #""received":_"#, options: .regularExpression
  )
  .replacingOccurrences(
    of: #"cursor [0-9]+ \(the next pull: --after [0-9]+\)"#, with: "cursor _", options: .regularExpression)
  return editingReceived(masked, { _ in "_" })
}

/// CSV text (RFC 4180, CRLF records) whose header has a `received` column, with that field of
/// every record replaced by `edit`'s answer, or left out when it answers `nil`; other text as it is.
private func editingReceived(_ text: String, _ edit: (Substring) -> String?) -> String {
  let records = csvRecords(text)
  guard let header = records.first, let column = header.firstIndex(of: "received") else { return text }
  return records.map { fields in
    var kept = fields.map(String.init)
    if kept.count > column {
      if let replaced = edit(fields[column]) { kept[column] = replaced } else { kept.remove(at: column) }
    }
    return kept.joined(separator: ",")
  }.joined(separator: "\r\n")
}

/// The records of CSV text, each field as written (quotes kept), split on the commas and CRLFs
/// outside quotes.
private func csvRecords(_ text: String) -> [[Substring]] {
  var records: [[Substring]] = []
  var fields: [Substring] = []
  var start = text.startIndex
  var index = text.startIndex
  var quoted = false
  while index < text.endIndex {
    let character = text[index]
    if character == "\"" {
      quoted.toggle()
    } else if !quoted, character == "," {
      fields.append(text[start..<index])
      start = text.index(after: index)
    } else if !quoted, character == "\r\n" {
      fields.append(text[start..<index])
      records.append(fields)
      fields = []
      start = text.index(after: index)
    }
    index = text.index(after: index)
  }
  fields.append(text[start..<text.endIndex])
  records.append(fields)
  return records
}
