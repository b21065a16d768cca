import NavCore

/// Exports written out as text. The events table as CSV, the largest and most common export,
/// is written from SQLite's column bytes (copied, and written out on a second thread) by
/// `CSVRowWriter`: no `ExportRow` and no array per event, and the same columns
/// `export(.events)` gives, since both come from `writeEventsRow`.
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
      // Rows are copied here and written out as CSV on a second thread (CSVExportPipeline).
      let pipeline = CSVExportPipeline.start(omittingPayloads: filter.omitsPayloads)
      defer { pipeline.stop() }
      func take(_ written: CSVExportPipeline.Written) throws(StoreError) {
        for _ in 0..<written.rows {
          rows += 1
          progress?(rows)
        }
        if let failure = written.failure { throw failure }
        if csv.bytes.isEmpty, written.bytes.count >= chunkSize {
          try write(written.bytes)
          return
        }
        csv.bytes.append(contentsOf: written.bytes)
        if csv.bytes.count >= chunkSize {
          try write(csv.bytes)
          csv.bytes.removeAll(keepingCapacity: true)
        }
      }
      func newChunk() -> CopiedEventsRows {
        CopiedEventsRows(
          byteCapacity: CSVExportPipeline.bytesPerChunk + 4096, rowCapacity: CSVExportPipeline.rowsPerChunk)
      }
      var copied = newChunk()
      do throws(StoreError) {
        try forEachEventsRow(filter: filter) { statement, session, clockWentBack throws(StoreError) in
          copied.append(statement, session: session, clockWentBack: clockWentBack)
          if copied.rows.count == CSVExportPipeline.rowsPerChunk
            || copied.bytes.count >= CSVExportPipeline.bytesPerChunk
          {
            try pipeline.submit(copied, take: take)
            copied = newChunk()
          }
        }
      } catch {
        // A row before this one may not be writable: that is the export's first error.
        if !copied.rows.isEmpty { try pipeline.submit(copied, take: take) }
        try pipeline.drain(take: take)
        throw error
      }
      if !copied.rows.isEmpty { try pipeline.submit(copied, take: take) }
      try pipeline.drain(take: take)
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
