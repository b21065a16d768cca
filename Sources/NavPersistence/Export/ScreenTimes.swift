@_spi(Internals) import NavCore

/// One view of a screen, as the `screen-views` export counts it: the screen on top, and how long
/// it stayed there in the foreground.
package struct ScreenTime: Hashable, Sendable {
  /// The screen's name.
  package let screen: String
  /// Its time on top, in the foreground, in milliseconds (never negative).
  package let milliseconds: Int64
}

/// The views of sessions whose events are in hand (a collector's overview), by the same rules as
/// the `screen-views` export, so that a figure on a page and a query over an export agree.
package enum ScreenTimes {
  /// The views of `events`, which are whole sessions in (session, seq) order.
  package static func views(of events: [AnyEvent]) throws(StoreError) -> [ScreenTime] {
    var replay = ScreenViewReplay(table: .screenViews, since: nil, omitsPayloads: true)
    var views: [ScreenTime] = []
    func take(_ row: ExportRow) {
      guard case .text(let screen) = row.values[1], case .integer(let milliseconds) = row.values[5] else { return }
      views.append(ScreenTime(screen: screen, milliseconds: milliseconds))
    }
    for event in events { try replay.apply(event, take) }
    try replay.finishSession(take)
    return views
  }
}
