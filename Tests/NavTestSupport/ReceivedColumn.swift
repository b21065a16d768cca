import Foundation

/// An export in CSV without its last column, `received`: the order in which a store received
/// its rows, which differs between two stores that hold the same history written in other
/// batches (a device's store and the collector's copy of it).
public func withoutReceived(csv bytes: [UInt8]) -> [UInt8] {
  let text = String(decoding: bytes, as: UTF8.self)
  let records = text.components(separatedBy: "\r\n").map { record in
    guard let comma = record.lastIndex(of: ",") else { return record }
    return String(record[..<comma])
  }
  return Array(records.joined(separator: "\r\n").utf8)
}

/// `withoutReceived(csv:)` of text.
public func withoutReceived(csv text: String) -> String {
  String(decoding: withoutReceived(csv: Array(text.utf8)), as: UTF8.self)
}

/// Output of a command with the order of arrival masked wherever it shows (a JSON row's
/// `received`, an export's last CSV column, the cursor an export prints), for comparing what two
/// stores hold: a file and PostgreSQL number their writes differently.
public func maskingReceived(_ text: String) -> String {
  var masked = text.replacingOccurrences(
    of: #""received":[0-9]+"#, with: #""received":_"#, options: .regularExpression
  )
  .replacingOccurrences(
    of: #"cursor [0-9]+ \(the next pull: --after [0-9]+\)"#, with: "cursor _", options: .regularExpression)
  if masked.hasPrefix("session,"), masked.components(separatedBy: "\r\n").first?.hasSuffix(",received") == true {
    masked = masked.replacingOccurrences(of: ",[0-9]+\r\n", with: ",_\r\n", options: .regularExpression)
  }
  return masked
}
