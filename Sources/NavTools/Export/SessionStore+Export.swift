@_spi(Internals) import NavArchive
import NavCore
@_spi(Internals) import NavHistory
import NavPersistence

extension SessionStore {
  /// Exports a table, row by row, to `emit`, in one read transaction and constant memory.
  /// Returns how many rows were emitted. `format` says which form the rows will be written in
  /// (the events table's JSON Lines rows carry the whole event). `emit`'s errors come back as
  /// `.caller`, and stop the export.
  @discardableResult
  package func export(
    _ table: ExportTable, format: ExportFormat = .csv, filter: ExportFilter = ExportFilter(),
    _ emit: (ExportRow) throws -> Void
  ) throws(StoreError) -> Int {
    try StoreError.ruling(ExportEncoding.checkPayloads(table, format: format, filter: filter))
    return try withReadTransaction { engine throws(StoreError) in
      if let session = filter.session { _ = try engine.eventCount(of: session) }
      var rows = 0
      try engine.export(table, format: format, filter: filter) { row throws(StoreError) in
        try StoreEngine.callingBack { try emit(row) }
        rows += 1
      }
      return rows
    }
  }

  /// Exports a table as text, the way `navstore export` writes it: the CSV header first, then
  /// one line per row, handed to `write` in chunks of about 64 KiB, in one read transaction and
  /// constant memory. `progress` is called with the row count after each row. Returns the row
  /// count. What `write` throws (a full disk, a closed pipe) comes back as `.caller`.
  ///
  /// The bytes are those of `export` followed by `ExportEncoding`; the events table as CSV
  /// takes a faster way to them.
  @discardableResult
  @_spi(Internals) public func exportEncoded(
    _ table: ExportTable, format: ExportFormat, filter: ExportFilter = ExportFilter(), progress: ((Int) -> Void)? = nil,
    write: ([UInt8]) throws -> Void
  ) throws(StoreError) -> Int {
    try StoreError.ruling(ExportEncoding.checkPayloads(table, format: format, filter: filter))
    return try withReadTransaction { engine throws(StoreError) in
      if let session = filter.session { _ = try engine.eventCount(of: session) }
      var export = ExportProgress(table, format: format, filter: filter)
      try engine.exportEncoded(&export, pageBytes: nil, progress: progress) { chunk throws(StoreError) in
        try StoreEngine.callingBack { try write(chunk) }
      }
      return export.rows
    }
  }

  /// The next page of an export, in a read transaction of its own: about `bytes` of text (the
  /// header first), or less at the table's end, and `export` moved on past it. Empty when the
  /// rows read were all left out by the filter; `export.finished` says when there is no more.
  package func exportPage(_ export: inout ExportProgress, bytes: Int) throws(StoreError) -> [UInt8] {
    if export.rows == 0, !export.headerWritten {
      try StoreError.ruling(ExportEncoding.checkPayloads(export.table, format: export.format, filter: export.filter))
    }
    return try withReadTransaction { engine throws(StoreError) in
      var page: [UInt8] = []
      try engine.exportEncoded(&export, pageBytes: bytes, progress: nil) { chunk throws(StoreError) in
        page.append(contentsOf: chunk)
      }
      return page
    }
  }

  /// Exports a table row by row (see the synchronous `export(_:format:filter:_:)`).
  @discardableResult
  package func export(
    _ table: ExportTable, format: ExportFormat = .csv, filter: ExportFilter = ExportFilter(),
    _ emit: @escaping @Sendable (ExportRow) throws -> Void
  ) async throws(StoreError) -> Int {
    try await offloaded { () throws(StoreError) in try self.export(table, format: format, filter: filter, emit) }
  }
}
