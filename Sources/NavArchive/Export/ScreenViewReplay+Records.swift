@_spi(Internals) import NavCore
@_spi(Internals) import NavHistory

/// The moments the event-shaped formats send, as the replay reaches them.
extension ScreenViewReplay {
  /// Writes the moment `event` made, when the replay writes records and the filter keeps it.
  mutating func record<Failure: HistoryFailure>(
    _ kind: NavigationRecord.Kind, at event: AnyEvent, _ emit: (ExportRow) throws(Failure) -> Void
  ) throws(Failure) {
    try record(kind, at: event.at, seq: event.seq ?? 0, received: received, emit)
  }

  /// Writes a moment at `at`, made by the event `seq`, the session's events received up to
  /// `received`: a `screen` record says the visit on top begins.
  func record<Failure: HistoryFailure>(
    _ kind: NavigationRecord.Kind, at: Timestamp, seq: Int, received: Int64,
    _ emit: (ExportRow) throws(Failure) -> Void
  ) throws(Failure) {
    guard output == .records, let session, filter.includes(at), filter.hands(received: received) else { return }
    var record = NavigationRecord(
      kind: kind, session: session, seq: seq, at: at, received: received, journey: journey,
      restoredFrom: restoredFrom, context: context, screen: kind == .sessionStart ? nil : open?.screen)
    switch kind {
    case .screen:
      guard let open else { return }
      record.visit = NavigationRecord.Visit(
        id: open.visitID, arrival: open.arrival, presentation: open.presentation, placement: open.placement,
        parameters: open.parameters, restored: open.restored, causeAction: open.causeAction, cause: open.cause,
        origin: open.origin, previous: open.previous, previousMilliseconds: open.previousMilliseconds)
    case .background, .sessionEnd:
      if let open, open.seen { record.visitMilliseconds = ClockOrder.adding(open.earlierInVisit, open.milliseconds) }
    case .sessionStart, .foreground:
      break
    }
    try emit(ExportRow(record))
  }
}
