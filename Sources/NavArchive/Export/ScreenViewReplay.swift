@_spi(Internals) import NavCore
@_spi(Internals) import NavHistory

/// Follows the visible screen through a stream of events, session after session, and emits the
/// `screen-views` rows (a view when a screen stops being visible, and at a session's end) or the
/// `transitions` rows (one per change of visible screen).
///
/// **One action, one change.** Consecutive events of a session with the same time, origin and
/// cause are one change: what one `record` call stores for a deep link (dismiss, presentCover,
/// push at the same millisecond). Only the screen visible after the last of them counts, so the
/// screens passed through on the way are neither views nor transitions. The user's gestures
/// (origin `user`, no cause) are never joined: two gestures are two changes, whatever their
/// time, so the screen shown between them is a view.
///
/// **Restores.** The first change of a session that began by restoring another (its start's
/// `restoredFrom`) is not the user arriving: its view and its transition are marked `restored`,
/// so a funnel can leave them out, or join them to the session restored.
///
/// **Only time in the foreground is time on screen.** `background` ends the view on top (its
/// `ended_by` says so), and `foreground` begins a view of whatever is on top then (`resumed`):
/// the time in between belongs to no view. Navigation in the background is a transition, but no
/// view. `end` ends the last view; a session that stopped without either leaves its last view
/// open (no `exited_at`, no `ended_by`), lasting up to its last event.
///
/// **Time as the device claimed it.** A view lasts the sum of the times between consecutive
/// events while it is visible, each at least 0: when the clock went back (an event earlier than
/// the one before it), that step counts 0 ms and the row's `clock_went_back` says so. Durations
/// are never negative, and a session's views add up to its `foreground_ms` (each is held at
/// `ClockOrder.maximumDuration`, which only a hand-made history reaches).
///
/// **Received order.** Each row's `received` is the highest number under which the store received
/// an event the row was made from, up to the last of them (for a view still open, the session's
/// last event): a view's row changes when a later event closes it, and then comes again in an
/// incremental export, with a higher number. A view's row carries its session's journey too: when
/// the journey moves (`StoredJourney`), the row's number is the move's, and the row comes again.
/// A session's events received past the cursor the export answers to are left, from the first
/// of them on, to the next export.
package struct ScreenViewReplay {
  /// The screen visible now, since when, and for how long so far.
  struct OpenView {
    var screen: VisibleScreen
    /// The view's id: its session and the seq it began after (`session#seq`).
    var id: String
    /// The id of the visit's first view: a view and its continuations after the background
    /// share it.
    var visitID: String
    /// The screen the user saw last before the visit, if any.
    var previous: VisibleScreen?
    /// Whether the visit has been seen: a screen brought on top in the background is first seen
    /// at the return, where its visit begins.
    var seen: Bool
    /// How the visit began.
    var arrival: ViewArrival
    /// Who made the visit's change: the user's gesture, or the app.
    var origin: EventOrigin
    /// Which tab the screen is in.
    var placement: ViewPlacement
    /// How the screen's own route shows it: `root`, `push`, `sheet` or `cover`.
    var presentation: String?
    /// The name of the app's action that made the visit's change, if it gave one.
    var causeAction: String?
    /// That action, canonical JSON, or `nil` when payloads are left out.
    var cause: String?
    /// The screen's own value, canonical JSON, or `nil` when payloads are left out.
    var payload: String?
    /// The screen's parameters apart from its name (canonical JSON), or `nil`.
    var parameters: String?
    /// Whether the view is a restored session's first.
    var restored: Bool
    /// Whether the view began with the app's return to the foreground.
    var resumed = false
    /// The seq of the event after which it began.
    var seq: Int
    var enteredAt: Timestamp
    var milliseconds: Int64 = 0
    /// The visit's time in the foreground before this view (its views before the background).
    var earlierInVisit: Int64 = 0
    /// The time in the foreground of the visit before this one, if any.
    var previousMilliseconds: Int64?
    var clockWentBack = false
  }

  /// What the replay writes.
  enum Output {
    /// The `screen-views` rows.
    case views
    /// The `transitions` rows.
    case transitions
    /// The moments the event-shaped formats send (`NavigationRecord`).
    case records
    /// Nothing: the replay only counts each session's visits (`visits`), for the sessions
    /// table's `screen_count`.
    case visits
  }

  /// Consecutive events of one action, waiting for one that is not part of it.
  private struct Change {
    var at: Timestamp
    var origin: EventOrigin
    var cause: JSONValue?
    var operations: [String]
    /// How each of its operations moves the user.
    var movements: [NavigationMovement] = []
    /// The stack its first `setRoutes` replaced, as it was: what tells a screen the new routes
    /// uncover from one they bring. (Only that coordinator is kept, so the replay never copies
    /// the rest of the state: a push costs the same whatever the stacks' lengths.)
    var replaced: (path: CoordinatorPath, old: AnyCoordinator)?
    var lastSeq: Int
    /// Whether its first event is earlier than the event before it.
    var clockWentBack: Bool
    /// The highest received number of the session's events up to its last.
    var received: Int64 = 0

    func includes(_ event: AnyEvent) -> Bool {
      event.at == at && event.origin == origin && event.cause == cause && !(origin == .user && cause == nil)
        && !event.operation.isLifecycle
    }
  }

  let output: Output
  let filter: ExportFilter
  private var redaction: PayloadRedaction { filter.redaction }
  private(set) var session: SessionID?
  /// The highest received number of the session's events so far.
  private(set) var received: Int64 = 0
  /// The first session of the chain of restores the session continues.
  private(set) var journey = ""
  /// The number of the write that last moved the session's journey (0 if none): a view's row
  /// carries the journey, so it changed then, and its `received` is at least this.
  private var journeyMoved: Int64 = 0
  /// The visits of the session in progress so far: the distinct `visit_id`s of its views, each
  /// counted where its first view begins in the foreground.
  package private(set) var visits = 0
  /// What the session ran on, as its start gave it.
  private(set) var context: SessionContext?
  /// The session the one in progress continues, if it began by restoring one.
  private(set) var restoredFrom: SessionID?
  /// Whether the session reached an event received past the export's cursor: it and the rest
  /// of the session are left to the next export.
  private var cut = false
  /// Whether the session in progress began by restoring another, and has not yet settled its
  /// first change.
  private var restoring = false
  private var state: AnyCoordinator?
  /// The session's lifecycle phase: views count time only in the foreground.
  private var phase = SessionPhase.foreground
  /// The screen on top since the last change (in the background too, where its time is not
  /// counted and its row was already written).
  private(set) var open: OpenView?
  /// The screen the user saw last in the session in progress: the last view's.
  private var lastSeen: VisibleScreen?
  /// The time in the foreground of the visit of `lastSeen`, up to its last view's end.
  private var lastSeenMilliseconds: Int64?
  private var pending: Change?
  private var lastAt: Timestamp?

  /// A replay for `table` (`screen-views` or `transitions`) in `format`, writing the rows
  /// `filter` keeps: for the event-shaped formats, the moments they send
  /// (`NavigationRecord`), made from the screen views; for `sessions`, nothing but the count of
  /// each session's visits (`SessionRowReplay`).
  package init(table: ExportTable, format: ExportFormat = .csv, filter: ExportFilter) {
    switch (format.isEventShaped, table) {
    case (true, _): output = .records
    case (false, .transitions): output = .transitions
    case (false, .sessions): output = .visits
    case (false, .screenViews), (false, .events): output = .views
    }
    self.filter = filter
  }

  /// Takes the next event, in (session, seq) order, which the store received under `received`,
  /// of a session whose journey is `journey` (read at its first event; the session's own id,
  /// never moved, when `nil`).
  package mutating func apply<Failure: HistoryFailure>(
    _ event: AnyEvent, received eventReceived: Int64 = 0, journey: StoredJourney? = nil,
    _ emit: (ExportRow) throws(Failure) -> Void
  ) throws(Failure) {
    if event.session != session {
      try finishSession(emit)
      session = event.session
      state = nil
      phase = .foreground
      lastAt = nil
      lastSeen = nil
      lastSeenMilliseconds = nil
      restoring = event.operation.restoredFrom != nil
      context = nil
      restoredFrom = nil
      received = 0
      visits = 0
      cut = false
      self.journey = journey?.first ?? event.session.rawValue
      journeyMoved = journey?.moved ?? 0
    }
    if cut { return }
    guard filter.reaches(received: eventReceived) else {
      cut = true
      return
    }
    received = max(received, eventReceived)
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
      } else if phase == .foreground, let view = open {
        open?.milliseconds = ClockOrder.adding(view.milliseconds, from: lastAt, to: event.at)
      }
    }
    lastAt = event.at
    var replaced: (path: CoordinatorPath, old: AnyCoordinator)?
    if case .setRoutes = event.operation.kind, pending?.replaced == nil,
      let old = try? state?.coordinator(at: event.operation.path)
    {
      replaced = (event.operation.path, old)
    }
    do throws(NavigationError) {
      try event.operation.apply(toSession: &state)
    } catch {
      throw Failure(.unreadableHistory(session: event.session, seq: event.seq ?? 0, .eventNoLongerApplies(error)))
    }
    if case .start = event.operation.kind {
      context = event.operation.context.map { redaction.omits ? $0.withoutUserID : $0 }
      restoredFrom = event.operation.restoredFrom?.session
      try record(.sessionStart, at: event, emit)
    }
    if event.operation.isLifecycle {
      try lifecycle(event, emit)
      return
    }
    if pending == nil {
      pending = Change(
        at: event.at, origin: event.origin, cause: event.cause, operations: [], lastSeq: 0, clockWentBack: wentBack)
    }
    if let replaced { pending?.replaced = replaced }
    pending?.operations.append(event.operation.name)
    pending?.movements.append(event.operation.movement)
    pending?.lastSeq = event.seq ?? 0
    pending?.received = received
  }

  /// Ends the session in progress: its last change settles, and the screen visible then stays
  /// visible up to the session's last event (an open view, unless the app was not in the
  /// foreground by then).
  package mutating func finishSession<Failure: HistoryFailure>(_ emit: (ExportRow) throws(Failure) -> Void)
    throws(Failure)
  {
    if let change = pending { try settle(change, emit) }
    pending = nil
    try close(exit: nil, endedBy: nil, received: received, emit)
    open = nil
  }

  /// The app left, came back, or ended the session: the view on top ends, or a view of the
  /// screen on top begins.
  private mutating func lifecycle<Failure: HistoryFailure>(
    _ event: AnyEvent, _ emit: (ExportRow) throws(Failure) -> Void
  )
    throws(Failure)
  {
    switch event.operation.kind {
    case .foreground:
      phase = .foreground
      try record(.foreground, at: event, emit)
      if var view = open, let session {
        view.earlierInVisit = view.seen ? ClockOrder.adding(view.earlierInVisit, view.milliseconds) : 0
        (view.enteredAt, view.seq, view.milliseconds) = (event.at, event.seq ?? 0, 0)
        view.id = Self.viewID(session, event.seq ?? 0)
        let begins = !view.seen
        if begins { (view.visitID, view.seen) = (view.id, true) }
        (view.resumed, view.restored, view.clockWentBack) = (true, false, false)
        open = view
        if begins {
          visits += 1
          try record(.screen, at: event, emit)
        }
      }
    case .background:
      if phase == .foreground { try record(.background, at: event, emit) }
      try close(exit: event.at, endedBy: .background, received: received, emit)
      phase = .background
    default:
      try record(.sessionEnd, at: event, emit)
      try close(exit: event.at, endedBy: .end, received: received, emit)
      phase = .ended
    }
  }

  /// A change is over: when the visible screen is another than before it, the screen before it
  /// leaves (a view) and the new one enters (a transition).
  private mutating func settle<Failure: HistoryFailure>(_ change: Change, _ emit: (ExportRow) throws(Failure) -> Void)
    throws(Failure)
  {
    let restored = restoring
    restoring = false
    guard let session, let state, let visible = state.visibleScreen else { return }
    let route = Self.route(of: visible, in: state)
    let screen = redaction.apply(screen: route?.screen)
    let payload = screen?.canonicalString
    let causeAction = change.cause.map { ScreenName.of($0) }
    let cause = redaction.apply(change.cause)?.canonicalString
    // The same place in the tree is the same view, even when the screen's value changed in
    // place (a search query typed): its payload is the one it was entered with.
    if let open, open.screen.name == visible.name, open.screen.coordinator == visible.coordinator,
      open.screen.index == visible.index
    {
      return
    }
    if output == .transitions, filter.includes(change.at), filter.hands(received: change.received) {
      func text(_ value: String?) -> ExportValue { .text(orNull: value) }
      try emit(
        ExportRow(values: [
          .text(session.rawValue), text(open?.screen.name), .text(visible.name),
          .text(change.operations.joined(separator: "+")), .time(change.at), .text(change.origin.rawValue),
          .integer(Int64(change.lastSeq)), .boolean(change.clockWentBack), text(open?.screen.path),
          .text(visible.path), text(open?.payload), text(payload), .boolean(restored),
          text(causeAction), text(cause), .integer(change.received),
        ]))
    }
    try close(exit: change.at, endedBy: .navigation, received: change.received, emit)
    let arrival =
      open == nil
      ? ViewArrival.first(restored: restored)
      : ViewArrival.of(change.movements, bringing: visible, route: route, replaced: change.replaced)
    let id = Self.viewID(session, change.lastSeq)
    open = OpenView(
      screen: visible, id: id, visitID: id, previous: lastSeen, seen: phase == .foreground, arrival: arrival,
      origin: change.origin,
      placement: ViewPlacement(of: visible, in: state), presentation: route?.style.name, causeAction: causeAction,
      cause: cause, payload: payload,
      parameters: screen.flatMap { ScreenName.parameters(of: $0)?.canonicalString },
      restored: restored, seq: change.lastSeq, enteredAt: change.at, previousMilliseconds: lastSeenMilliseconds)
    if phase == .foreground {
      visits += 1
      try record(.screen, at: change.at, seq: change.lastSeq, received: change.received, emit)
    }
  }

  /// A view's id: its session and the seq of the event it began after. A seq begins one view at
  /// most, so the id is unique, and it stays the same in every export of the session.
  private static func viewID(_ session: SessionID, _ seq: Int) -> String { "\(session.rawValue)#\(seq)" }

  /// The visible route: its screen's value is what tells `numberDetail(7)` from
  /// `numberDetail(99)`.
  private static func route(of visible: VisibleScreen, in state: AnyCoordinator) -> AnyRoute? {
    guard case .stack(let routes)? = try? state.coordinator(at: visible.coordinator),
      routes.indices.contains(visible.index)
    else { return nil }
    return routes[visible.index]
  }

  /// How a view ended: the `ended_by` column.
  private enum ViewEnding: String {
    case navigation, background, end
  }

  /// Writes the row of the view on top, when the app is in the foreground (in the background,
  /// it was written when the app left). `endedBy` is `nil` for a view still open at the
  /// session's last event. `received` is the highest received number of the events up to the
  /// one that ended it; the row's is the journey's move when that is later.
  private mutating func close<Failure: HistoryFailure>(
    exit: Timestamp?, endedBy: ViewEnding?, received eventsReceived: Int64,
    _ emit: (ExportRow) throws(Failure) -> Void
  ) throws(Failure) {
    guard phase == .foreground, let open, let session else { return }
    let received = max(eventsReceived, journeyMoved)
    lastSeen = open.screen
    lastSeenMilliseconds = ClockOrder.adding(open.earlierInVisit, open.milliseconds)
    guard output == .views, filter.includes(open.enteredAt), filter.hands(received: received) else { return }
    func text(_ value: String?) -> ExportValue { .text(orNull: value) }
    try emit(
      ExportRow(values: [
        .text(session.rawValue), .text(open.screen.name), .text(open.screen.path), .time(open.enteredAt),
        exit.map(ExportValue.time) ?? .null, .integer(open.milliseconds), .boolean(open.clockWentBack),
        open.payload.map(ExportValue.text) ?? .null, .boolean(open.restored), .integer(Int64(open.seq)),
        endedBy.map { .text($0.rawValue) } ?? .null, .boolean(open.resumed), .text(open.id), .text(open.visitID),
        text(open.previous?.name), text(open.previous?.path), .text(open.arrival.kind.rawValue),
        .text(open.arrival.direction), .text(open.origin.rawValue),
        open.placement.tab.map { .integer(Int64($0)) } ?? .null, text(open.placement.tabScreen),
        text(open.causeAction), text(open.cause), text(open.parameters), .integer(received), .text(journey),
        text(open.presentation),
      ]))
  }
}
