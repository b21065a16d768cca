import NavCore
@_spi(Internals) import NavHistory

/// The `sessions` table's rows as every engine writes them: each session's stored summary, and
/// its `screen_count`, the visits its `screen-views` rows would hold (their distinct
/// `visit_id`s), counted by replaying its events with the same rules (`ScreenViewReplay`).
///
/// The count is the replay's, never a second rule kept beside it: an engine hands each session's
/// summary with its first event (`begin`), then its events in seq order (`take`); the row is
/// written when the next session begins, or at the end (`finish`). A session whose first event
/// is missing (a damaged store, which `verify` reports) has no row. A session whose history
/// cannot be replayed (a damaged row) keeps its row, with no count: the summary is what the
/// table is for.
package struct SessionRowReplay {
  private let filter: ExportFilter
  private var replay: ScreenViewReplay
  private var summary: SessionSummary?
  /// Whether the session in progress could not be replayed: its count is unknown.
  private var unreadable = false

  /// Rows of the sessions `filter` keeps.
  package init(filter: ExportFilter) {
    self.filter = filter
    // The count takes every event of the session: `since` and `until` select the session
    // (`ExportFilter.keeps`), not the events counted; the cursors still cut the session where
    // the export answers to.
    var counting = ExportFilter(after: filter.after, through: filter.through)
    counting.foreignFrom = filter.foreignFrom
    replay = ScreenViewReplay(table: .sessions, filter: counting)
  }

  /// The next session, before its first event: the row of the one before is written.
  package mutating func begin<Failure: HistoryFailure>(
    _ next: SessionSummary, _ emit: (ExportRow) throws(Failure) -> Void
  ) throws(Failure) {
    try finish(emit)
    summary = next
    unreadable = false
  }

  /// The session's next event, in seq order.
  package mutating func take(_ row: StoredEventRow) {
    guard !unreadable, summary?.id == row.session else { return }
    do throws(HistoryError) {
      try replay.apply(try row.decoded(), received: row.received) { (_: ExportRow) throws(HistoryError) in }
    } catch {
      unreadable = true
    }
  }

  /// Writes the row of the session in progress, if the filter keeps it.
  package mutating func finish<Failure: HistoryFailure>(_ emit: (ExportRow) throws(Failure) -> Void)
    throws(Failure)
  {
    guard let summary else { return }
    self.summary = nil
    var count: Int?
    if !unreadable {
      do throws(HistoryError) {
        try replay.finishSession { (_: ExportRow) throws(HistoryError) in }
        count = replay.visits
      } catch {
        count = nil
      }
    }
    guard filter.keeps(summary) else { return }
    try emit(ExportRow(values: ExportEncoding.sessionsRow(summary, redacting: filter.redaction, screenCount: count)))
  }
}
