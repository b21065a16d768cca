@_spi(Internals) import NavCore
@_spi(Internals) import NavHistory

/// One view of a screen, as the `screen-views` export counts it: the screen on top, and how long
/// it stayed there in the foreground.
package struct ScreenTime: Hashable, Sendable {
  /// The screen's name.
  package let screen: String
  /// Its time on top, in the foreground, in milliseconds (never negative).
  package let milliseconds: Int64
}

/// The views of sessions read a piece at a time (a collector's overview), by the same rules as
/// the `screen-views` export, so that a figure on a page and a query over an export agree.
package struct ScreenTimes {
  private var replay = ScreenViewReplay(table: .screenViews, filter: ExportFilter(omitsPayloads: true))
  /// The views found so far.
  package private(set) var views: [ScreenTime] = []

  package init() {}

  /// Takes the next events of whole sessions, in (session, seq) order. A history that no longer
  /// replays throws, keeping the views found before the event that broke it.
  package mutating func take(_ events: some Sequence<AnyEvent>) throws(HistoryError) {
    var found: [ScreenTime] = []
    defer { views += found }
    for event in events { try replay.apply(event) { row throws(HistoryError) in Self.note(row, in: &found) } }
  }

  /// Ends the session in progress (its last view lasts up to its last event).
  package mutating func finish() throws(HistoryError) {
    var found: [ScreenTime] = []
    defer { views += found }
    try replay.finishSession { row throws(HistoryError) in Self.note(row, in: &found) }
  }

  private static func note(_ row: ExportRow, in found: inout [ScreenTime]) {
    guard case .text(let screen) = row.values[1], case .integer(let milliseconds) = row.values[5] else { return }
    found.append(ScreenTime(screen: screen, milliseconds: milliseconds))
  }
}
