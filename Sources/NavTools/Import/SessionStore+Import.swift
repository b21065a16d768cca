@_spi(Internals) import NavArchive
import NavCore
@_spi(Internals) import NavHistory
import NavPersistence

extension SessionStore {
  /// Imports JSON Lines events (the wire format's Event, one per line; blank lines are skipped).
  ///
  /// All lines are one transaction, or one per `batchSize` lines. The first bad line (not an
  /// event, refused by the store, or longer than the reader's limit) stops the import with an
  /// error naming it, and rolls back its transaction: batches committed before it stay.
  /// `progress` is called after each line is read, with the line count and the bytes read.
  /// Memory stays flat whatever the number of lines or sessions; reads of the store go on
  /// meanwhile and see the batches committed so far.
  ///
  /// Lines are read on the calling thread, and decoded and prepared on a second one (applied,
  /// encoded, hashed) while the calling thread stores the lines before them.
  @discardableResult
  @_spi(Internals) public func importJSONLines(
    from source: some JSONLinesSource, batchSize: Int? = nil, progress: ((_ lines: Int, _ bytes: Int) -> Void)? = nil
  ) throws(StoreError) -> ImportSummary {
    var reader = source
    var summary = ImportSummary()
    var finished = false
    var first = true
    let pipeline = appendPipeline()
    defer { pipeline.stop() }
    while !finished {
      try withWriteTransaction { engine throws(StoreError) in
        if first {
          try engine.beginImportCount()
          first = false
        }
        var lastSession: SessionID?
        func store(_ entry: AppendPipeline.Entry) throws(StoreError) {
          if let error = entry.unreadable { throw StoreError.invalidLine(line: entry.position, error) }
          guard let event = entry.event else { return }  // with no error, never: a line is one or fails
          let appended = try engine.append(entry, event)
          if appended?.wasAlreadyStored == true { summary.alreadyStored += 1 } else { summary.appended += 1 }
          // Consecutive events of one session (the usual order) are counted once without a lookup.
          let session = event.session
          if session != lastSession {
            do throws(StoreError) {
              if try engine.isFirstInImport(session) { summary.sessions += 1 }
            } catch {
              throw error.isStorageFailure ? error : StoreError.lineFailed(line: entry.position, error)
            }
          }
          lastSession = session
        }
        var inBatch = 0
        while batchSize.map({ inBatch < $0 }) ?? true {
          let next: ArraySlice<UInt8>?
          do throws(LineReaderError) {
            next = try reader.nextLine()
          } catch {
            // A line before this one may have been refused: that is the import's first error.
            try pipeline.drain(take: store)
            throw StoreError.unreadableInput(error)
          }
          guard let bytes = next else {
            finished = true
            break
          }
          progress?(reader.lineNumber, reader.bytesRead)
          let isFirst = reader.lineNumber == 1
          if ImportLine.isBlank(bytes, isFirst: isFirst) { continue }  // skipped, and not counted in the batch
          // Decoded on the preparing thread, beside this one's SQLite work; a line that is not
          // an event fails the import when its turn comes, after the lines before it.
          try pipeline.submit((.line(Array(bytes), isFirst: isFirst), reader.lineNumber), take: store)
          inBatch += 1
        }
        try pipeline.drain(take: store)
      }
      summary.transactions += 1
    }
    return summary
  }

  /// Imports JSON Lines events (see the synchronous `importJSONLines(from:batchSize:progress:)`).
  /// The source is handed over to the store for the import.
  @discardableResult
  package func importJSONLines(
    from source: sending some JSONLinesSource, batchSize: Int? = nil,
    progress: (@Sendable (_ lines: Int, _ bytes: Int) -> Void)? = nil
  ) async throws(StoreError) -> ImportSummary {
    let reader = UncheckedTransfer(source)
    return try await offloaded { () throws(StoreError) in
      try self.importJSONLines(from: reader.value, batchSize: batchSize, progress: progress)
    }
  }
}
