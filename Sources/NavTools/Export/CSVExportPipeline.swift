@_spi(Internals) import NavArchive
import NavCore
import NavPersistence

/// The events table as CSV on two cores: the reading thread steps SQLite and copies each row's
/// columns (`CopiedEventsRows`), a second thread writes them out as CSV (reading each stored
/// operation's headline, escaping, writing hashes in hex), and the reading thread hands the
/// text to the caller in order.
enum CSVExportPipeline {
  /// Rows copied per chunk, at most.
  static let rowsPerChunk = 512
  /// Copied bytes per chunk, at most about: the CSV of a chunk is then about the size of the
  /// export's writes (64 KiB).
  static let bytesPerChunk = 40 << 10

  /// A chunk written out: its CSV, the number of rows in it, and, when a row could not be
  /// written, why (the rows before it are in `bytes`; none after it).
  struct Written: Sendable {
    var bytes: [UInt8]
    var rows: Int
    var failure: StoreError?
  }

  /// Starts the writing thread.
  static func start(redacting redaction: PayloadRedaction) -> OrderedPipeline<CopiedEventsRows, Written> {
    // No serving on the reading thread: writing out is the heavier half here, and a chunk
    // written there would stop the reading that feeds the second thread (measured: 0.66x the
    // shell with it, 1.2x without).
    OrderedPipeline(name: "NavPersistence.CSVExportPipeline", chunkSize: 1) {
      { chunk in write(chunk, redacting: redaction) }
    }
  }

  /// The chunk's rows as CSV, each as `ExportEncoding.writeEventsRow` writes a statement's row.
  static func write(_ chunk: CopiedEventsRows, redacting redaction: PayloadRedaction) -> Written {
    var csv = CSVRowWriter(capacity: chunk.bytes.count * 2 + 4096)
    var rows = 0
    do throws(StoreError) {
      try chunk.forEachRow { row, session, clockWentBack throws(StoreError) in
        try StoreError.ruling(
          ExportEncoding.writeEventsRow(
            row, session: session, clockWentBack: clockWentBack, redacting: redaction, into: &csv))
        csv.endRow()
        rows += 1
      }
      return Written(bytes: csv.bytes, rows: rows, failure: nil)
    } catch {
      return Written(bytes: [], rows: rows, failure: error)
    }
  }
}
