import NavCore

/// The replay's walk, whatever drives the app's side (a model and its app, or a reducer): the
/// recording is played event by event as untyped trees, decoded as today's `Screen` where it is
/// compared, and each step handed to the app's side through the closures `run` takes.
struct ReplayEngine<Screen: NavigationScreen, Action: Decodable & Sendable> {
  /// The session's first state, as today's `Screen`.
  let start: Coordinator<Screen>
  /// The host the session was recorded on (the default profile when the recording does not say).
  let host: HostProfile
  private let recorded: RecordedSession
  private let resolve: (RecordedCause) -> CauseResolution<Action>
  private var report: ReplayReport
  /// The recorded state after the last event played.
  private var stored: AnyCoordinator
  /// The recorded phase after the last event played.
  private var phase = SessionPhase.foreground

  init(_ recorded: RecordedSession, resolve: @escaping (RecordedCause) -> CauseResolution<Action>)
    throws(ReplayError)
  {
    guard let first = recorded.events.first,
      case .start(let state, let link, let context, let launch) = first.operation.kind
    else {
      throw .inconsistentRecording(seq: 1, reason: "the session \(recorded.id) does not begin with a start")
    }
    self.recorded = recorded
    self.resolve = resolve
    stored = state
    host = context?.host ?? .default
    start = try Self.typed(state, seq: 1)
    report = ReplayReport(session: recorded.id)
    if let link {
      report.restoredFrom = link
      try checkRestore(from: link, launch: launch)
    }
  }

  /// Plays every step after the start through the app's side; throws at the first divergence.
  mutating func run(
    state current: () -> Coordinator<Screen>, phase currentPhase: () -> SessionPhase?,
    send: (Action) -> String?, adopt: (Coordinator<Screen>) -> String?, enter: (LifecycleEvent) -> Void
  ) throws(ReplayError) -> ReplayReport {
    for step in RecordedStep.steps(of: recorded.events.dropFirst()) {
      switch step.kind {
      case .action(let cause):
        try replay(step, cause: cause, current: current, send: send, adopt: adopt, enter: enter)
      case .change:
        let states = try play(step.events)
        if let after = states.last, let failure = adopt(after.state) {
          throw .inconsistentRecording(seq: step.lastSeq, reason: "the recorded change cannot be shown: \(failure)")
        }
        report.changesApplied += 1
      case .lifecycle(let event):
        _ = try play(step.events)
        enter(event)
        report.lifecycleEvents += 1
      }
      if let replayed = currentPhase(), replayed != phase {
        throw .diverged(
          ReplayDivergence(
            seq: step.lastSeq, action: Self.name(of: step), actionsMatched: report.actionsMatched,
            difference: "the session is \(phase.rawValue) in the recording, \(replayed.rawValue) in the replay",
            recorded: "\(try Self.typed(stored, seq: step.lastSeq))", replayed: "\(current())"))
      }
    }
    return report
  }

  /// One recorded action: decoded and sent until the app's state has been through the step's
  /// recorded states (the whole step at once, as a rule; the same action twice in one
  /// millisecond is one step of two changes, which takes two sends), or stops at the first
  /// state the recording never reached.
  private mutating func replay(
    _ step: RecordedStep, cause: RecordedCause, current: () -> Coordinator<Screen>, send: (Action) -> String?,
    adopt: (Coordinator<Screen>) -> String?, enter: (LifecycleEvent) -> Void
  ) throws(ReplayError) {
    let before = try Self.typed(stored, seq: step.lastSeq)
    let states = try play(step.events)
    let action: Action
    do {
      action = try WireFormat.decode(Action.self, from: cause.value)
    } catch {
      switch resolve(cause) {
      case .replay(let replacement):
        action = replacement
      case .skip:
        if let after = states.last, let failure = adopt(after.state) {
          throw .inconsistentRecording(seq: step.lastSeq, reason: "the recorded change cannot be shown: \(failure)")
        }
        for event in step.events.compactMap(RecordedStep.lifecycle(of:)) { enter(event) }
        report.skippedActions.append(cause)
        return
      case .fail:
        throw .causeDoesNotDecode(
          seq: step.events.first?.seq ?? step.lastSeq, action: cause, reason: "\(error)",
          actionsMatched: report.actionsMatched)
      }
    }
    let matchedBefore = report.actionsMatched
    var remaining = states[...]
    var firstReplayed: Coordinator<Screen>?
    repeat {
      let failure = send(action)
      let replayed = current()
      if firstReplayed == nil { firstReplayed = replayed }
      // Where a step is sent more than once (its first send reached a state part of the way),
      // the likelier story when a later send fails is one action that did less than recorded:
      // the divergence shows the first send against the whole step.
      func stop(_ difference: String?) -> ReplayError {
        report.actionsMatched = matchedBefore
        return diverged(
          at: step.lastSeq, cause, difference: difference, recorded: states.last?.state ?? before,
          replayed: firstReplayed ?? replayed)
      }
      if let failure { throw stop(failure) }
      if remaining.isEmpty {
        // An action whose only record is lifecycle (a sign-out that ends the session) leaves the tree as it was.
        guard replayed == before else { throw stop(nil) }
      } else if remaining.last?.state == replayed {
        remaining = []
      } else if let reached = remaining.firstIndex(where: { $0.state == replayed }) {
        remaining = remaining[(reached + 1)...]
      } else {
        throw stop(nil)
      }
      report.actionsMatched += 1
    } while !remaining.isEmpty
  }

  /// The divergence after `cause` at `seq`: `difference` when given, else where the trees differ.
  private func diverged(
    at seq: Int, _ cause: RecordedCause, difference: String? = nil, recorded: Coordinator<Screen>,
    replayed: Coordinator<Screen>
  ) -> ReplayError {
    let place = TreeDifference.first(recorded: recorded, replayed: replayed)
    return .diverged(
      ReplayDivergence(
        seq: seq, action: "\(cause)", actionsMatched: report.actionsMatched,
        difference: difference ?? place?.detail ?? "the trees are equal",
        recorded: "\(place?.recorded ?? recorded)", replayed: "\(place?.replayed ?? replayed)"))
  }

  /// Applies `events` to the recorded state; returns the state after each that changes the
  /// tree, as today's `Screen`, with its seq.
  private mutating func play(_ events: [AnyEvent]) throws(ReplayError) -> [(seq: Int, state: Coordinator<Screen>)] {
    var states: [(seq: Int, state: Coordinator<Screen>)] = []
    for event in events {
      let seq = event.seq ?? 0
      var state: AnyCoordinator? = stored
      do {
        try event.operation.apply(toSession: &state)
      } catch {
        throw .inconsistentRecording(seq: seq, reason: "\(error)")
      }
      if let state { stored = state }
      if let lifecycle = RecordedStep.lifecycle(of: event) {
        phase = lifecycle.phase
      } else {
        states.append((seq, try Self.typed(stored, seq: seq)))
      }
    }
    return states
  }

  /// Checks that today's app restores the source as the recording's start holds, and that the
  /// start can be played from its launch state on the recorded host in legal steps.
  private mutating func checkRestore(from link: SessionLink, launch: LaunchRecord?) throws(ReplayError) {
    if let launch, !launch.restoredSomething { return }
    if let source = recorded.sources[link.session] {
      var state: AnyCoordinator?
      for (index, event) in source.enumerated() where (event.seq ?? index + 1) <= link.seq {
        do {
          try event.operation.apply(toSession: &state)
        } catch {
          throw .inconsistentRecording(seq: event.seq ?? index + 1, reason: "in \(link.session): \(error)")
        }
      }
      guard let state, source.count >= link.seq else {
        throw .inconsistentRecording(
          seq: 1, reason: "the start restores \(link), and the recording holds \(source.count) event(s) of it")
      }
      let action = "the restore of \(link)"
      let restored: Coordinator<Screen>
      do {
        let decoded = try state.restoring(as: Screen.self).state
        restored = launch?.outcome == .restoredRoots ? decoded.launchState : decoded
      } catch {
        throw .diverged(
          ReplayDivergence(
            seq: 1, action: action, actionsMatched: 0, difference: "today's app restores nothing of it: \(error)",
            recorded: "\(start)", replayed: "(nothing)"))
      }
      if let place = TreeDifference.first(recorded: start, replayed: restored) {
        throw .diverged(
          ReplayDivergence(
            seq: 1, action: action, actionsMatched: 0, difference: place.detail, recorded: "\(place.recorded)",
            replayed: "\(place.replayed)"))
      }
      report.restoreChecked = true
    }
    let launchState = start.launchState
    let plan: StepPlan<Screen>
    do {
      plan = try Coordinator.plan(from: launchState, to: start, host: host)
    } catch {
      throw .restoreNotPlayable(session: recorded.id, host: host, reason: "\(error)")
    }
    var shown = launchState
    for (index, step) in plan.steps.enumerated() {
      let legal =
        index == 0
        ? Coordinator.differsInContentsOnly(shown, step)
        : Coordinator.isLegalTransition(from: shown, to: step, host: host)
      guard legal else {
        throw .restoreNotPlayable(
          session: recorded.id, host: host,
          reason: "step \(index) is not one legal change from the one before:\n\(step)")
      }
      shown = step
    }
    report.restoreSteps = plan.steps.count
  }

  /// How a step names itself in a divergence.
  private static func name(of step: RecordedStep) -> String {
    switch step.kind {
    case .action(let cause): "\(cause)"
    case .change: "a change without an action (applied as recorded)"
    case .lifecycle(let event): "the app's \(event)"
    }
  }

  /// A recorded tree as today's `Screen`, every screen decoded or the replay stopped.
  private static func typed(_ state: AnyCoordinator, seq: Int) throws(ReplayError) -> Coordinator<Screen> {
    do {
      return try state.restoring(as: Screen.self, policy: .strict).state
    } catch {
      throw .screenDoesNotDecode(seq: seq, reason: "\(error)")
    }
  }
}
