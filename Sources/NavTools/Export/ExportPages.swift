@_spi(Internals) import NavArchive
@_spi(Internals) import NavHistory
import NavPersistence

/// An export read a page at a time, each when it is asked for: the next page is read from the
/// store (on the store's queue, in a read transaction of its own) only when the consumer takes
/// it, so a consumer that stops reading holds no thread, no transaction and no page beyond
/// the one it has.
package struct ExportPages: AsyncSequence, Sendable {
  package typealias Element = [UInt8]
  /// About how many bytes a page holds.
  package static let pageBytes = 1 << 16

  let store: SessionStore
  let start: ExportProgress
  let bytes: Int

  package struct AsyncIterator: AsyncIteratorProtocol {
    let store: SessionStore
    var export: ExportProgress
    let bytes: Int

    /// The next page with text in it; `nil` after the last. Throws `StoreError`, or
    /// `CancellationError` when the task reading it was cancelled.
    package mutating func next() async throws -> [UInt8]? {
      while !export.finished {
        // A consumer that went away stops the reading, pages the filter emptied included.
        try Task.checkCancellation()
        let (page, moved) = try await store.offloadedRead { [export, bytes] store throws(StoreError) in
          var moving = export
          let page = try store.exportPage(&moving, bytes: bytes)
          return (page, moving)
        }
        export = moved
        if !page.isEmpty { return page }
      }
      return nil
    }
  }

  package func makeAsyncIterator() -> AsyncIterator { AsyncIterator(store: store, export: start, bytes: bytes) }
}

extension SessionStore {
  /// `table` encoded as `navstore export` writes it, as pages read when they are asked for
  /// (see `ExportPages`). The pages' bytes are the export's bytes.
  package func exportPages(
    _ table: ExportTable, format: ExportFormat, filter: ExportFilter, bytes: Int = ExportPages.pageBytes
  ) -> ExportPages {
    ExportPages(store: self, start: ExportProgress(table, format: format, filter: filter), bytes: bytes)
  }
}
