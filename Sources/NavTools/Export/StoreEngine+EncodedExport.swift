@_spi(Internals) import NavArchive
import NavCore
@_spi(Internals) import NavHistory
import NavPersistence

/// Exports written out as text. The events table as CSV, the largest and most common export,
/// is written from SQLite's column bytes: no `ExportRow` and no array per event, and the same
/// columns `export(.events)` gives, since both come from `ExportEncoding.writeEventsRow`. Made at once, its
/// rows are copied and written out on a second thread (`CSVExportPipeline`).
extension StoreEngine {
  /// Stored rows a page reads at most, kept or not: a page's work is bounded when a filter
  /// keeps few rows.
  static let rowsPerPage = 4096

  /// Encodes `table` from where `export` stands, header first, and moves it on.
  ///
  /// With `pageBytes`, one page: rows until about that many bytes (or `rowsPerPage` stored
  /// rows read), handed to `write` as one chunk; `export.finished` says whether it was the
  /// last. Without, the rest of the table, in chunks of about 64 KiB (the last one shorter).
  /// `progress` is called with the row count after each row.
  func exportEncoded(
    _ export: inout ExportProgress, pageBytes: Int?, progress: ((Int) -> Void)?,
    write: ([UInt8]) throws(StoreError) -> Void
  ) throws(StoreError) {
    guard !export.finished else { return }
    let chunkSize = pageBytes ?? (1 << 16)
    var csv = CSVRowWriter(capacity: chunkSize + 4096)
    if !export.headerWritten, let header = ExportEncoding.header(export.table, format: export.format) {
      csv.bytes.append(contentsOf: header.utf8)
    }
    export.headerWritten = true
    var rows = export.rows
    func rowWritten() {
      rows += 1
      progress?(rows)
    }
    /// Whether there is room for another row: a page stops when full; otherwise a full chunk is
    /// written and emptied.
    func room() throws(StoreError) -> Bool {
      guard csv.bytes.count >= chunkSize else { return true }
      guard pageBytes == nil else { return false }
      try write(csv.bytes)
      csv.bytes.removeAll(keepingCapacity: true)
      return true
    }
    let limit = pageBytes == nil ? Int.max : Self.rowsPerPage
    if export.table == .events, export.format == .csv {
      let redaction = export.filter.redaction
      if pageBytes == nil {
        try exportEventsCSVPipelined(
          &export, after: &csv.bytes, chunkSize: chunkSize, rowWritten: rowWritten, write: write)
      } else {
        export.finished = try forEachEventsRow(filter: export.filter, after: &export.lastEvent, limit: limit) {
          statement, session, clockWentBack throws(StoreError) in
          try StoreError.ruling(
            ExportEncoding.writeEventsRow(
              statement, session: session, clockWentBack: clockWentBack, redacting: redaction, into: &csv))
          csv.endRow()
          rowWritten()
          return try room()
        }
      }
      export.rows = rows
    } else {
      var full = false
      let (table, format) = (export.table, export.format)
      func encode(_ row: ExportRow) throws(StoreError) {
        ExportEncoding.append(row, table: table, format: format, to: &csv.bytes)
        rowWritten()
        full = try !room()
      }
      try exportRows(&export, limit: limit, more: { !full }, encode)
    }
    if !csv.bytes.isEmpty { try write(csv.bytes) }
  }

  /// The rest of the events table as CSV, on two cores: rows are copied here and written out
  /// on a second thread, and the text comes back in order, after `pending` (the header), in
  /// chunks of `chunkSize`; what is left short of a chunk stays in `pending`.
  private func exportEventsCSVPipelined(
    _ export: inout ExportProgress, after pending: inout [UInt8], chunkSize: Int, rowWritten: () -> Void,
    write: ([UInt8]) throws(StoreError) -> Void
  ) throws(StoreError) {
    let pipeline = CSVExportPipeline.start(redacting: export.filter.redaction)
    defer { pipeline.stop() }
    func take(_ written: CSVExportPipeline.Written) throws(StoreError) {
      for _ in 0..<written.rows { rowWritten() }
      if let failure = written.failure { throw failure }
      if pending.isEmpty, written.bytes.count >= chunkSize {
        try write(written.bytes)
        return
      }
      pending.append(contentsOf: written.bytes)
      if pending.count >= chunkSize {
        try write(pending)
        pending.removeAll(keepingCapacity: true)
      }
    }
    func newChunk() -> CopiedEventsRows {
      CopiedEventsRows(
        byteCapacity: CSVExportPipeline.bytesPerChunk + 4096, rowCapacity: CSVExportPipeline.rowsPerChunk)
    }
    var copied = newChunk()
    do throws(StoreError) {
      try forEachEventsRow(filter: export.filter, after: &export.lastEvent) {
        statement, session, clockWentBack throws(StoreError) in
        copied.append(statement, session: session, clockWentBack: clockWentBack)
        if copied.rows.count == CSVExportPipeline.rowsPerChunk || copied.bytes.count >= CSVExportPipeline.bytesPerChunk
        {
          try pipeline.submit(copied, take: take)
          copied = newChunk()
        }
        return true
      }
    } catch {
      // A row before this one may not be writable: that is the export's first error.
      if !copied.rows.isEmpty { try pipeline.submit(copied, take: take) }
      try pipeline.drain(take: take)
      throw error
    }
    if !copied.rows.isEmpty { try pipeline.submit(copied, take: take) }
    try pipeline.drain(take: take)
    export.finished = true
  }
}
