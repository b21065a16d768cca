@_spi(Internals) import NavCore

/// Follows the visible screen through a stream of events, session after session, and emits the
/// `screen-views` rows (a view when a screen stops being visible, and at a session's end) or the
/// `transitions` rows (one per change of visible screen).
///
/// **One action, one change.** Consecutive events of a session with the same time, origin and
/// cause are one change: what one `record` call stores for a deep link (dismiss, presentCover,
/// push at the same millisecond). Only the screen visible after the last of them counts, so the
/// screens passed through on the way are neither views nor transitions.
///
/// **Time as the device claimed it.** A view lasts the sum of the times between consecutive
/// events while it is visible, each at least 0: when the clock went back (an event earlier than
/// the one before it), that step counts 0 ms and the row's `clock_went_back` says so. Durations
/// are never negative, and a session's views add up to its `duration_ms` (each is held at
/// `ClockOrder.maximumDuration`, which only a hand-made history reaches).
struct ScreenViewReplay {
  /// The screen visible now, since when, and for how long so far.
  private struct OpenView {
    var screen: VisibleScreen
    var enteredAt: Timestamp
    var milliseconds: Int64 = 0
    var clockWentBack = false
  }

  /// Consecutive events of one action, waiting for one that is not part of it.
  private struct Change {
    var at: Timestamp
    var origin: EventOrigin
    var cause: JSONValue?
    var operations: [String]
    var lastSeq: Int
    /// Whether its first event is earlier than the event before it.
    var clockWentBack: Bool

    func includes(_ event: AnyEvent) -> Bool {
      event.at == at && event.origin == origin && event.cause == cause
    }
  }

  private let table: ExportTable
  private let since: Timestamp?
  private var session: SessionID?
  private var state: AnyCoordinator?
  private var open: OpenView?
  private var pending: Change?
  private var lastAt: Timestamp?

  init(table: ExportTable, since: Timestamp?) {
    self.table = table
    self.since = since
  }

  /// Takes the next event, in (session, seq) order.
  mutating func apply(_ event: AnyEvent, _ emit: (ExportRow) throws(StoreError) -> Void) throws(StoreError) {
    if event.session != session {
      try finishSession(emit)
      session = event.session
      state = nil
      lastAt = nil
    }
    if let change = pending, !change.includes(event) {
      try settle(change, emit)
      pending = nil
    }
    // The time since the event before belongs to the screen visible since then.
    var wentBack = false
    if let lastAt {
      if event.at < lastAt {
        wentBack = true
        open?.clockWentBack = true
      } else if let view = open {
        open?.milliseconds = ClockOrder.adding(view.milliseconds, from: lastAt, to: event.at)
      }
    }
    lastAt = event.at
    do throws(NavigationError) {
      state = try event.operation.apply(to: state)
    } catch {
      throw StoreError.unreadableHistory(session: event.session, seq: event.seq ?? 0, .eventNoLongerApplies(error))
    }
    if pending == nil {
      pending = Change(
        at: event.at, origin: event.origin, cause: event.cause, operations: [], lastSeq: 0, clockWentBack: wentBack)
    }
    pending?.operations.append(event.operation.name)
    pending?.lastSeq = event.seq ?? 0
  }

  /// Ends the session in progress: its last change settles, and the screen visible then stays
  /// visible up to the session's last event.
  mutating func finishSession(_ emit: (ExportRow) throws(StoreError) -> Void) throws(StoreError) {
    if let change = pending { try settle(change, emit) }
    pending = nil
    try close(exit: nil, emit)
    open = nil
  }

  /// A change is over: when the visible screen is another than before it, the screen before it
  /// leaves (a view) and the new one enters (a transition).
  private mutating func settle(_ change: Change, _ emit: (ExportRow) throws(StoreError) -> Void) throws(StoreError) {
    guard let session, let visible = state?.visibleScreen else { return }
    if let open, open.screen.name == visible.name, open.screen.coordinator == visible.coordinator,
      open.screen.index == visible.index
    {
      return
    }
    if table == .transitions, include(change.at) {
      try emit(
        ExportRow(values: [
          .text(session.rawValue), open.map { .text($0.screen.name) } ?? .null, .text(visible.name),
          .text(change.operations.joined(separator: "+")), .time(change.at), .text(change.origin.rawValue),
          .integer(Int64(change.lastSeq)), .boolean(change.clockWentBack),
        ]))
    }
    try close(exit: change.at, emit)
    open = OpenView(screen: visible, enteredAt: change.at)
  }

  private func close(exit: Timestamp?, _ emit: (ExportRow) throws(StoreError) -> Void) throws(StoreError) {
    guard table == .screenViews, let open, let session, include(open.enteredAt) else { return }
    try emit(
      ExportRow(values: [
        .text(session.rawValue), .text(open.screen.name), .text(open.screen.path), .time(open.enteredAt),
        exit.map(ExportValue.time) ?? .null, .integer(open.milliseconds), .boolean(open.clockWentBack),
      ]))
  }

  private func include(_ time: Timestamp) -> Bool {
    since.map { time >= $0 } ?? true
  }
}
