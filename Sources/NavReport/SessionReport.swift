import NavCore
@_spi(Internals) import NavPersistence

/// Everything one session's report shows, read from the store in one go.
///
/// A report shows at most `windowSize` events (2,000 by default): all of them for most
/// sessions; for a long one, those around the chosen seq (`--at`), the header saying which. The
/// page stays small enough to open in a browser at once whatever the session's length, and the
/// window moves with `--at`.
///
/// What it holds is bounded by design: the states after the events are a table of shared
/// nodes (`ReportStates`), which grows with what the events changed; the states whose restore
/// plans the page carries are few and small (`plannedRouteLimit`); text from the store is cut
/// to what a page shows (a screen's name at 120 characters, a cause at 200). Reading it keeps
/// one state at a time, not one per event.
public struct SessionReport: Sendable {
  /// The session.
  package var session: SessionID
  /// Its number of events, in all.
  package var eventCount: Int
  /// Its first event's time.
  package var firstAt: Timestamp
  /// Its last event's time.
  package var lastAt: Timestamp
  /// How long it lasted, counting only the clock going forward (`SessionSummary`).
  package var durationMilliseconds: Int64
  /// How many of its events are earlier than the event before them.
  package var clockJumps: Int
  /// Its last chain value, hex.
  package var headHash: String
  /// Whether it verifies (checked when the report is made); `nil` when the report was made
  /// within a budget (a collector's) that the session's verification would pass.
  package var verification: VerificationResult?
  /// The session it continues, if it began by restoring one.
  package var restoredFrom: SessionLink?
  /// What the session ran on, as its start said (without the user id and the app's own keys
  /// when payloads are left out).
  package var context: SessionContext?
  /// What the launch that began the session did, as its start said: the page lists each
  /// route its restore left out (without the decoder's words when payloads are left out:
  /// they may quote a screen's values).
  package var launch: LaunchRecord?
  /// The events shown, in order.
  package var events: [Event]
  /// The states after the shown events, as shared nodes; events refer to them by reference.
  package var states: ReportStates
  /// The state after the seq the page opens on.
  package var focusState: AnyCoordinator?
  /// The states whose restore plans the page carries, by reference: the opening state's, and as
  /// many others as `plannedRouteLimit` allows.
  package var plannedStates: [Int: AnyCoordinator]
  /// The seq whose state and restore plan the page opens on.
  package var focus: Int
  /// Whether screens' payloads and causes were left out.
  package var omitsPayloads: Bool
  /// The time between a restore plan's steps, as the app plays them (`NavigationModel`'s
  /// `delayMilliseconds`); the page's reader can change it.
  package var planDelayMilliseconds = StepPlan<JSONValue>.defaultDelayMilliseconds

  /// One event as the page shows it.
  package struct Event: Sendable {
    /// The event's seq.
    package var seq: Int
    /// When it happened.
    package var at: Timestamp
    /// Whether the user's gesture or the app made it.
    package var origin: EventOrigin
    /// The operation in a few words (`push numberDetail`), at most 160 characters.
    package var summary: String
    /// The name of the screen on top after it, at most 120 characters.
    package var screen: String?
    /// The presentation layer of that screen: 0 for the base stack, one more for each sheet or
    /// cover on the way up. The timeline draws each layer in a lane of its own.
    package var layer: Int
    /// The app's action, as JSON, at most 200 characters (nil when there is none, or payloads
    /// are omitted).
    package var cause: String?
    /// The state after it, a reference into `states`; `nil` when the table was full.
    package var state: Int?
    /// Whether the app was in the foreground, in the background or ended after it: the
    /// timeline draws no screen while the app is away.
    package var phase: SessionPhase = .foreground
  }

  /// The number of events a report shows at most.
  package static let windowSize = 2_000
  /// The routes, in all, of the states whose restore plans the page carries besides the
  /// opening one; a state of more routes than `plannedStateRouteLimit` gets no plan.
  package static let plannedRouteLimit = 6_000
  /// The most routes a state may have for its plan to be in the page (a plan has about a step
  /// per route, each step a state).
  package static let plannedStateRouteLimit = 300
  /// The work a collector's report may spend verifying its session (`WorkBudget`'s units: about
  /// 128 MiB of stored events); a longer session's page says where to verify it.
  package static let verificationWork = 128 * 1024 * 1024

  /// Reads the report of `session`, opening on `focus` (default: the last event), with the
  /// payloads of its screens and causes or without them. Reads and verifies the whole session:
  /// call it off the main actor.
  public static func load(
    _ session: SessionID, from store: SessionStore, focus: Int? = nil, omitsPayloads: Bool = false
  ) throws(StoreError) -> SessionReport {
    try load(session, from: store, focus: focus, omitsPayloads: omitsPayloads, windowSize: windowSize)
  }

  /// Reads the report of `session` (see `load(_:from:focus:omitsPayloads:)`), showing at most
  /// `windowSize` events, and verifying the session within `verificationBudget` when one is
  /// given.
  package static func load(
    _ session: SessionID, from store: SessionStore, focus: Int?, omitsPayloads: Bool, windowSize: Int,
    verificationBudget: WorkBudget? = nil
  ) throws(StoreError) -> SessionReport {
    let first = try store.history(of: session, from: 1, to: 1)
    let summary = try store.summary(of: session)
    let count = summary.eventCount
    let last = try store.history(of: session, from: count, to: count)
    guard let start = first.first, let end = last.last else { throw StoreError.unknownSession(session) }
    var builder = try StoreError.ruling(
      Builder(
        summary: summary, start: start, end: end, focus: focus, omitsPayloads: omitsPayloads, windowSize: windowSize))
    try store.replayHistory(of: session, from: builder.window.lowerBound, to: builder.window.upperBound) {
      event, state in builder.take(event, state: state)
    }
    if let verificationBudget {
      return builder.report(verification: try store.verify(session, within: verificationBudget).result)
    }
    guard let verification = try store.verify([session]).first else { throw StoreError.unknownSession(session) }
    return builder.report(verification: verification)
  }

  /// A report made from what any store reads of a session: its summary, first and last events,
  /// then each event of `window` with the state after it, in order, then its verification.
  package struct Builder {
    /// The seqs whose events the report shows, and so the events `take` wants.
    package let window: ClosedRange<Int>
    private let summary: SessionSummary
    private let start: AnyEvent
    private let end: AnyEvent
    private let chosen: Int
    private let omitsPayloads: Bool
    private var events: [Event] = []
    /// The lifecycle operations among the events taken, by position: what their phases follow.
    private var lifecycle: [Int: AnyOperation] = [:]
    private var states: ReportStates
    private var focusState: AnyCoordinator?
    private var planned: [Int: AnyCoordinator] = [:]
    private var plannedRoutes = 0

    /// A report of the session `summary` sums up, opening on `focus` (default: the last
    /// event; past the last, `seqBeyondHistory`), showing at most `windowSize` events.
    package init(
      summary: SessionSummary, start: AnyEvent, end: AnyEvent, focus: Int?, omitsPayloads: Bool,
      windowSize: Int = SessionReport.windowSize
    ) throws(HistoryError) {
      let count = summary.eventCount
      if let focus, focus > count {
        throw HistoryError.seqBeyondHistory(session: summary.id, seq: focus, last: count)
      }
      chosen = min(max(1, focus ?? count), count)
      let size = min(max(1, windowSize), count)
      let lower = max(1, min(chosen - size / 2, count - size + 1))
      window = lower...min(count, lower + size - 1)
      self.summary = summary
      self.start = start
      self.end = end
      self.omitsPayloads = omitsPayloads
      states = ReportStates(omitsPayloads: omitsPayloads)
    }

    /// Takes the next event of the window and the state after it.
    package mutating func take(_ event: AnyEvent, state: AnyCoordinator) {
      let reference = states.add(state)
      let seq = event.seq ?? 0
      if seq == chosen { focusState = state }
      if let reference, planned[reference] == nil {
        let routes = state.routeCount(upTo: plannedStateRouteLimit)
        if routes <= plannedStateRouteLimit, seq == chosen || plannedRoutes + routes <= plannedRouteLimit {
          planned[reference] = state
          plannedRoutes += routes
        }
      }
      if event.operation.isLifecycle { lifecycle[events.count] = event.operation }
      var operation = event.operation
      if omitsPayloads, case .start(let state, let link, let context, let launch?) = operation.kind {
        operation = .start(state, restoredFrom: link, context: context, launch: launch.withoutAppWords)
      }
      events.append(
        Event(
          seq: seq, at: event.at, origin: event.origin,
          summary: ReportText.shortened(operation.summary, to: 160),
          screen: state.visibleScreen.map { ReportText.shortened($0.name, to: ReportText.nameLimit) },
          layer: state.presentationLayer,
          cause: omitsPayloads
            ? nil : event.cause.map { ReportText.shortened($0.canonicalString, to: ReportText.causeLimit) },
          state: reference))
    }

    /// The report, once the window's events were taken, with the session's verification.
    package func report(verification: VerificationResult?) -> SessionReport {
      var shown = events
      var phase = phaseBeforeWindow
      for index in shown.indices {
        if let operation = lifecycle[index] { phase = (try? phase.after(operation)) ?? phase }
        shown[index].phase = phase
      }
      return SessionReport(
        session: summary.id, eventCount: summary.eventCount, firstAt: start.at, lastAt: end.at,
        durationMilliseconds: summary.durationMilliseconds, clockJumps: summary.clockJumps,
        headHash: end.hash ?? "", verification: verification, restoredFrom: start.operation.restoredFrom,
        context: start.operation.context.map { omitsPayloads ? impersonal($0) : $0 }.flatMap { $0.isEmpty ? nil : $0 },
        launch: start.operation.launch.map { omitsPayloads ? $0.withoutAppWords : $0 }, events: shown, states: states,
        focusState: focusState, plannedStates: planned,
        focus: chosen, omitsPayloads: omitsPayloads)
    }

    /// The lifecycle phase before the window's first event, read from the window's events:
    /// the first lifecycle event among them says what came before it (a `foreground` comes
    /// after the background), and with none, the phase is the session's last when the window
    /// reaches its end. A window inside a long session with no lifecycle event in it is taken
    /// to be in the foreground: telling would mean reading the session from its start.
    private var phaseBeforeWindow: SessionPhase {
      guard window.lowerBound > 1 else { return .foreground }
      if let first = lifecycle.keys.min(), let operation = lifecycle[first] {
        return operation.name == AnyOperation.foreground.name ? .background : .foreground
      }
      return window.upperBound == summary.eventCount ? summary.phase : .foreground
    }
  }

  /// The seqs shown.
  package var window: ClosedRange<Int> { (events.first?.seq ?? 1)...(events.last?.seq ?? 1) }

  /// Whether the page shows every event of the session.
  package var isWhole: Bool { events.count == eventCount }
}

extension Coordinator {
  /// How many routes the tree has, hosted flows and every tab included, counted no further than
  /// past `limit` (any count above it is only said to be above it): a report asks of every state
  /// whether it is small enough to plan, and a long stack answers at once.
  func routeCount(upTo limit: Int) -> Int {
    var count = 0
    var pending = [self]
    while let coordinator = pending.popLast() {
      switch coordinator {
      case .stack(let routes):
        count += routes.count
        guard count <= limit else { return count }
        for route in routes { if let child = route.child { pending.append(child) } }
      case .tabs(let tabs, _):
        pending += tabs
      }
    }
    return count
  }

  /// How many sheets and covers are stacked up to the visible screen: the timeline's lane.
  var presentationLayer: Int {
    var layer = 0
    var current = self
    while true {
      switch current {
      case .stack(let routes):
        for route in routes where route.style.isPresented { layer += 1 }
        guard let child = routes.last?.child else { return layer }
        current = child
      case .tabs(let tabs, let selected):
        guard tabs.indices.contains(selected) else { return layer }
        current = tabs[selected]
      }
    }
  }
}

/// A context with nothing that could tell who the user is: no user id, none of the app's keys.
private func impersonal(_ context: SessionContext) -> SessionContext {
  var copy = context.withoutUserID
  copy.app = [:]
  return copy
}
