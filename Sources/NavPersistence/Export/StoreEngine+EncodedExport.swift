import NavCore

/// Exports written out as text. The events table as CSV, the largest and most common export,
/// is written from SQLite's column bytes straight into the output: no `String`, no
/// `ExportRow`, no array per event. The bytes are those `ExportEncoding.append` writes for the
/// rows of `export(.events)` (a test compares the two on awkward data).
extension StoreEngine {
  /// Encodes `table`, header first, calling `write` with chunks of about 64 KiB (the last one
  /// shorter) and `progress` with the row count after each row. Returns the row count.
  func exportEncoded(
    _ table: ExportTable, format: ExportFormat, filter: ExportFilter, progress: ((Int) -> Void)?,
    write: ([UInt8]) throws -> Void
  ) throws -> Int {
    let chunkSize = 1 << 16
    var buffer: [UInt8] = []
    buffer.reserveCapacity(chunkSize + 4096)
    if let header = ExportEncoding.header(table, format: format) { buffer.append(contentsOf: header.utf8) }
    var rows = 0
    func rowWritten(_ buffer: inout [UInt8]) throws {
      rows += 1
      progress?(rows)
      if buffer.count >= chunkSize {
        try write(buffer)
        buffer.removeAll(keepingCapacity: true)
      }
    }
    if table == .events, format == .csv {
      try writeEventsCSV(filter: filter, into: &buffer, rowWritten: rowWritten)
    } else {
      try export(table, format: format, filter: filter) { row in
        ExportEncoding.append(row, table: table, format: format, to: &buffer)
        try rowWritten(&buffer)
      }
    }
    if !buffer.isEmpty { try write(buffer) }
    return rows
  }

  /// The events table's CSV rows (no header), column by column from the statement.
  private func writeEventsCSV(
    filter: ExportFilter, into buffer: inout [UInt8], rowWritten: (inout [UInt8]) throws -> Void
  ) throws {
    let statement = try eventsQuery(session: filter.session, since: filter.since)
    defer { statement.reset() }
    var sessionID: [UInt8]?  // the stored id of the session in progress (none before the first row)
    var sessionField: [UInt8] = []  // and its CSV field, written once per session
    let comma = UInt8(ascii: ",")
    while try statement.step() {
      let sameSession = sessionID.map { id in statement.withTextBytes(0) { $0.elementsEqual(id) } } ?? false
      if !sameSession {
        let id = statement.text(0)
        let session = try Self.storedSessionID(id)
        sessionID = statement.textBytes(0)
        sessionField.removeAll()
        ExportEncoding.appendCSVField(session.rawValue, to: &sessionField)
      }
      buffer.append(contentsOf: sessionField)
      buffer.append(comma)
      DecimalDigits.append(statement.int64(1), to: &buffer)
      buffer.append(comma)
      Timestamp(millisecondsSince1970: statement.int64(2)).appendRFC3339(to: &buffer)
      buffer.append(comma)
      statement.withTextBytes(3) { ExportEncoding.appendCSVField(storedText: $0, to: &buffer) }
      buffer.append(comma)
      statement.withTextBytes(4) { operation in
        let columns = OperationColumns.of(operation)
        ExportEncoding.appendCSVField(columns.op, to: &buffer)
        buffer.append(comma)
        ExportEncoding.appendCSVField(columns.screen, to: &buffer)
        buffer.append(comma)
        ExportEncoding.appendCSVField(columns.path, to: &buffer)
        buffer.append(comma)
        ExportEncoding.appendCSVField(storedText: operation, to: &buffer)
      }
      buffer.append(comma)
      if !statement.isNull(5) {
        statement.withTextBytes(5) { ExportEncoding.appendCSVField(storedText: $0, to: &buffer) }
      }
      buffer.append(comma)
      statement.withBlobBytes(6) { HashChain.appendHex($0, to: &buffer) }
      buffer.append(0x0D)
      buffer.append(0x0A)
      try rowWritten(&buffer)
    }
  }
}
