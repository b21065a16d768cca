import NavCore

extension SessionStore {
  /// Decides what this launch shows, under `policy`, and notes the decision in the store.
  ///
  /// The latest session (see `latestSession()`) is restored whole, unless the user ended it
  /// (`endSession`), it is older than `policy.maximumAge`, not even its root decodes, or the
  /// last launches restored and did not settle: then only its roots are restored, or nothing,
  /// and `outcome` says which and why. Give the launch to the new session's recorder
  /// (`NavigationRecorder(store:session:launch:)`), which writes what it did into the session's
  /// `start` and notes that it settled once the app goes to the background or ends the session;
  /// hand the model to `confirm(_:once:)`, which notes it too once the restore is on screen and
  /// the app stayed up. A launch that dies before either makes the next one more careful. `now`
  /// is the current time (the system clock unless a test says otherwise).
  ///
  /// A launch that opens something (a notification, a URL, a shortcut) says so in `opening`,
  /// the app's word for it (`"notification"`): under `policy.linkedLaunches` it restores as
  /// usual, for the app to open the link on top (`NavigationModel`'s `opening:`), or declines
  /// the restore with that word as its reason.
  ///
  /// ```swift
  /// let launch = try await store.launch(as: Screen.self, policy: LaunchPolicy(maximumAge: .seconds(12 * 3600)))
  /// let recorder = NavigationRecorder<Screen>(store: store, session: newSession, launch: launch)
  /// let model = NavigationModel(launch.state(or: .launchNavigation), launchingFrom: launch.state?.launchState, recorder: recorder)
  /// store.confirm(launch, once: model)  // returns at once
  /// ```
  public func launch<AppScreen: NavigationScreen>(
    as type: AppScreen.Type, policy: LaunchPolicy = LaunchPolicy(), opening: String? = nil,
    now: Timestamp = Timestamp.now
  ) throws(StoreError) -> Launch<AppScreen> {
    try withWriteTransaction { engine throws(StoreError) in
      var decision = try Self.decide(as: type, policy: policy, now: now, engine: engine)
      if let opening, policy.linkedLaunches == .declineRestore, decision.link != nil {
        decision = Decision(outcome: .declined(reason: opening))
      }
      let kind: StoreEngine.LaunchKind
      switch decision.outcome {
      case .restored: kind = .whole
      case .restoredRoots: kind = .shallow
      case .startedFresh, .declined: kind = .fresh
      }
      let id = try engine.insertLaunch(kind, link: decision.link, at: now)
      return Launch(
        outcome: decision.outcome, state: decision.state, link: decision.link, dropped: decision.dropped,
        policy: policy, id: id)
    }
  }

  /// Decides what this launch shows (see the synchronous `launch(as:policy:opening:now:)`).
  public func launch<AppScreen: NavigationScreen>(
    as type: AppScreen.Type, policy: LaunchPolicy = LaunchPolicy(), opening: String? = nil,
    now: Timestamp = Timestamp.now
  ) async throws(StoreError) -> Launch<AppScreen> {
    try await offloaded { () throws(StoreError) in
      try self.launch(as: type, policy: policy, opening: opening, now: now)
    }
  }

  /// Lets `launch`'s restore go, because the app opens something else (`reason`, the app's
  /// word: `"notification"`): the launch is noted as settled (it restored nothing that could
  /// crash), and the launch returned shows nothing restored. Give the returned launch to the
  /// new session's recorder, whose `start` then says the restore was declined and why. A launch
  /// that restored nothing is returned as it is.
  public func decline<AppScreen>(_ launch: Launch<AppScreen>, reason: String, at time: Timestamp = Timestamp.now)
    throws(StoreError) -> Launch<AppScreen>
  {
    guard launch.link != nil else { return launch }
    try confirm(launch, at: time)
    return Launch(
      outcome: .declined(reason: reason), state: nil, link: nil, dropped: [], policy: launch.policy, id: launch.id)
  }

  /// Notes that `launch`'s restore settled: it is on screen and the app stayed up. Until this is
  /// called, the next launch counts this one as a launch that crashed while restoring.
  public func confirm<AppScreen>(_ launch: Launch<AppScreen>, at time: Timestamp = Timestamp.now) throws(StoreError) {
    try withWriteTransaction { engine throws(StoreError) in try engine.confirmLaunch(launch.id, at: time) }
  }

  /// Confirms `launch` in the background, once `model` has played the restore and the app has
  /// stayed up for the policy's `stableFor`; returns at once, so the launch never waits for it.
  ///
  /// The task needs no keeping: it runs on its own and holds the model only until it is done.
  /// Awaiting its `value` (a test, a launch screen that wants to know) gives the store's failure,
  /// if any; cancelling it confirms nothing, as a crash would. A fresh start or a declined
  /// restore has nothing to confirm (it restored nothing that could fail), and its task ends at
  /// once. The new session's recorder, when it was given the launch, confirms it sooner if the
  /// app goes to the background or ends the session first.
  @MainActor @discardableResult
  public func confirm<AppScreen>(_ launch: Launch<AppScreen>, once model: NavigationModel<AppScreen>) -> Task<
    Void, any Error
  > {
    Task { @MainActor in
      guard launch.link != nil else { return }
      await model.settled()
      try await Task.sleep(for: launch.policy.stableFor)
      try await offloaded { () throws(StoreError) in try self.confirm(launch) }
    }
  }

  /// Ends `session` on the user's behalf (they signed out, reset the app): appends its `end`
  /// event, so that no launch restores it and nothing more is recorded in it. `reason` is the
  /// app's own word for it (kept in the log, cut at 256 characters), shown when a launch starts
  /// fresh. A session that has ended already keeps its first ending. For the session the app is
  /// recording, the recorder's or the model's `end` does the same in order with its changes.
  public func endSession(_ session: SessionID, reason: String, at time: Timestamp = Timestamp.now) throws(StoreError) {
    try withWriteTransaction { engine throws(StoreError) in try engine.endSession(session, reason: reason, at: time) }
  }

  /// Notes that the user ended `session` (see the synchronous `endSession(_:reason:at:)`).
  public func endSession(_ session: SessionID, reason: String, at time: Timestamp = Timestamp.now)
    async throws(StoreError)
  {
    try await offloaded { () throws(StoreError) in try self.endSession(session, reason: reason, at: time) }
  }

  // MARK: Deciding

  private struct Decision<AppScreen: NavigationScreen> {
    var outcome: LaunchOutcome
    var state: Coordinator<AppScreen>?
    var link: SessionLink?
    var dropped: [DroppedRoute] = []

    static func fresh(_ reason: FreshStartReason) -> Decision {
      Decision(outcome: .startedFresh(reason))
    }
  }

  private static func decide<AppScreen: NavigationScreen>(
    as type: AppScreen.Type, policy: LaunchPolicy, now: Timestamp, engine: StoreEngine
  ) throws(StoreError) -> Decision<AppScreen> {
    guard let latest = try engine.latestSessionSummary(), let lastAt = latest.lastAt else { return .fresh(.noSession) }
    if let ending = try engine.ending(of: latest) {
      return .fresh(.endedByUser(session: latest.id, at: ending.at, reason: ending.reason))
    }
    if let maximumAge = policy.maximumAge {
      let limit = maximumAge.clampedMilliseconds
      // A clock set back since makes the session look newer, never older: its age counts as 0.
      let (age, overflow) = now.millisecondsSince1970.subtractingReportingOverflow(lastAt.millisecondsSince1970)
      if !overflow, age > limit {
        return .fresh(.tooOld(session: latest.id, lastActive: lastAt, maximumAgeMilliseconds: limit))
      }
    }
    let unsettled = try engine.unsettledLaunchesInARow(limit: 2)
    if unsettled >= 2 { return .fresh(.unsettledLaunches(unsettled)) }
    let stored = try engine.rehydrate(latest.id, at: latest.eventCount)
    let restored: RestoredState<AppScreen>
    do throws(RestoreError) {
      restored = try stored.restoring(as: type, policy: policy.decoding)
    } catch {
      return .fresh(.undecodable(session: latest.id, error))
    }
    let link = SessionLink(session: latest.id, seq: latest.eventCount)
    if unsettled == 1 {
      return Decision(
        outcome: .restoredRoots(unsettledLaunches: 1), state: restored.state.launchState, link: link,
        dropped: restored.dropped)
    }
    return Decision(outcome: .restored, state: restored.state, link: link, dropped: restored.dropped)
  }
}
