import NavCore

/// Exports written out as text. The events table as CSV, the largest and most common export,
/// is written from SQLite's column bytes straight into the output by `CSVRowWriter`: no
/// `ExportRow` and no array per event, and the same columns `export(.events)` gives, since both
/// come from `writeEventsRow`.
extension StoreEngine {
  /// Encodes `table`, header first, calling `write` with chunks of about 64 KiB (the last one
  /// shorter) and `progress` with the row count after each row. Returns the row count.
  func exportEncoded(
    _ table: ExportTable, format: ExportFormat, filter: ExportFilter, progress: ((Int) -> Void)?,
    write: ([UInt8]) throws(StoreError) -> Void
  ) throws(StoreError) -> Int {
    let chunkSize = 1 << 16
    var csv = CSVRowWriter(capacity: chunkSize + 4096)
    if let header = ExportEncoding.header(table, format: format) { csv.bytes.append(contentsOf: header.utf8) }
    var rows = 0
    func rowWritten(_ buffer: inout [UInt8]) throws(StoreError) {
      rows += 1
      progress?(rows)
      if buffer.count >= chunkSize {
        try write(buffer)
        buffer.removeAll(keepingCapacity: true)
      }
    }
    if table == .events, format == .csv {
      try forEachEventsRow(filter: filter) { statement, session throws(StoreError) in
        try Self.writeEventsRow(statement, session: session, omittingPayloads: filter.omitsPayloads, into: &csv)
        csv.endRow()
        try rowWritten(&csv.bytes)
      }
    } else {
      try export(table, format: format, filter: filter) { row throws(StoreError) in
        ExportEncoding.append(row, table: table, format: format, to: &csv.bytes)
        try rowWritten(&csv.bytes)
      }
    }
    if !csv.bytes.isEmpty { try write(csv.bytes) }
    return rows
  }
}
