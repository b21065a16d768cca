@_spi(Internals) import NavArchive
import NavCore
@_spi(Internals) import NavHistory
import NavPersistence

/// Where an export stands: what it exports, how far it has read, and what it carries from one
/// row to the next (the session replayed for the screen-view tables, the event before for
/// `clock_went_back`).
///
/// An export made at once (`navstore export`) passes through these states without stopping, in
/// one read transaction. The collector makes its exports a page at a time (`ExportPages`), each
/// page a read transaction of its own that goes on from here: nothing is held between two
/// pages (no statement, no transaction, no thread), so a client that reads slowly costs a
/// suspended task. Pages read after rows were stored see them: each session is exported as it
/// was when the export reached it, a whole prefix of its history, its chain intact (a session
/// only grows, or is forgotten or pruned whole).
package struct ExportProgress: Sendable {
  package let table: ExportTable
  package let format: ExportFormat
  package let filter: ExportFilter
  /// Whether the CSV header has been written.
  var headerWritten = false
  /// The last events row read (the events and screen-view tables).
  var lastEvent: EventsRowPosition?
  /// The screen views and transitions of the session in progress (made at the first row).
  var replay: ScreenViewReplay?
  /// The sessions table's session in progress, its row written once its events are replayed.
  var sessionRows: SessionRowReplay?
  /// Whether every row has been written.
  package internal(set) var finished = false
  /// The rows written so far.
  package internal(set) var rows = 0

  /// An export of `table` from its first row.
  package init(_ table: ExportTable, format: ExportFormat, filter: ExportFilter) {
    self.table = format.source(of: table)
    self.format = format
    self.filter = filter
  }
}

/// An events row read by an export: where the next read goes on, and the event before the next
/// row's, for `clock_went_back`.
struct EventsRowPosition: Sendable {
  var session: SessionID
  /// The session id's bytes as stored, compared with the next row's without decoding it.
  var storedSession: [UInt8]
  var seq: Int64
  var at: Int64
}
