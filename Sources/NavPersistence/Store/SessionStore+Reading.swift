@_spi(Internals) import NavCore
@_spi(Internals) import NavHistory

extension SessionStore {
  /// The session's state after event `seq` (default: its last event), and that seq.
  public func state(of session: SessionID, at seq: Int? = nil) throws(StoreError) -> SessionState {
    try withReadTransaction { engine throws(StoreError) in
      let count = try engine.eventCount(of: session)
      let target = seq ?? count
      guard (1...count).contains(target) else {
        throw StoreError.seqBeyondHistory(session: session, seq: target, last: count)
      }
      return SessionState(session: session, seq: target, state: try engine.rehydrate(session, at: target))
    }
  }

  /// The session's state after event `seq` (default: its last), decoded into the app's own
  /// `Screen` type, for showing at launch.
  ///
  /// A session saved by an older version of the app may hold screens the current type no
  /// longer decodes. Under `.dropUndecodable` (the default) each such screen's route goes, with
  /// what stands on it, and the result lists it; under `.strict` the call throws instead. When
  /// not even the top root decodes, the call throws `.cannotRestore` with
  /// `RestoreError.nothingRestorable`: start from the app's launch state.
  public func restore<AppScreen: NavigationScreen>(
    _ session: SessionID, as type: AppScreen.Type, at seq: Int? = nil, policy: RestorePolicy = .dropUndecodable
  ) throws(StoreError) -> RestoredSession<AppScreen> {
    let stored = try state(of: session, at: seq)
    do {
      let restored = try stored.state.restoring(as: type, policy: policy)
      return RestoredSession(session: session, seq: stored.seq, state: restored.state, dropped: restored.dropped)
    } catch {
      throw .cannotRestore(session: session, seq: stored.seq, error)
    }
  }

  /// The session's events from `from` to `to` (inclusive), with their hashes.
  public func history(of session: SessionID, from: Int = 1, to: Int? = nil) throws(StoreError) -> [AnyEvent] {
    try withReadTransaction { engine throws(StoreError) in
      _ = try engine.eventCount(of: session)
      var events: [AnyEvent] = []
      try engine.forEachEvent(of: session, from: from, to: to ?? Int.max) { row throws(StoreError) in
        events.append(try StoreError.ruling(row.decoded()))
      }
      return events
    }
  }

  /// Every session, ordered by id: one small summary per session (an app's own store holds
  /// few; the command line walks a fleet's one at a time).
  public func sessions() throws(StoreError) -> [SessionSummary] {
    var summaries: [SessionSummary] = []
    try forEachSession { summaries.append($0) }
    return summaries
  }

  /// Calls `body` with every session, ordered by id, in one read transaction and constant
  /// memory. `body`'s errors come back as `.caller`.
  package func forEachSession(_ body: (SessionSummary) throws -> Void) throws(StoreError) {
    try withReadTransaction { engine throws(StoreError) in
      try engine.forEachSessionSummary { summary throws(StoreError) in try StoreEngine.callingBack { try body(summary) }
      }
    }
  }

  /// One session as `sessions()` lists it: one key lookup. Throws `.unknownSession` for a
  /// session with no events.
  public func summary(of session: SessionID) throws(StoreError) -> SessionSummary {
    guard let summary = try withReadTransaction({ engine throws(StoreError) in try engine.sessionSummary(session) })
    else {
      throw StoreError.unknownSession(session)
    }
    return summary
  }

  /// One session as `sessions()` lists it (see the synchronous `summary(of:)`), off the
  /// caller's thread.
  public func summary(of session: SessionID) async throws(StoreError) -> SessionSummary {
    try await offloaded { () throws(StoreError) in try self.summary(of: session) }
  }

  /// The session whose last event is the most recent (ties go to the greatest id), or `nil` for
  /// an empty store: the one an app restores at launch. One index lookup, whatever the number of
  /// sessions.
  public func latestSession() throws(StoreError) -> SessionSummary? {
    try withReadTransaction { engine throws(StoreError) in try engine.latestSessionSummary() }
  }

  /// Calls `body` with each event from `from` to `to` and the session's state after it, for
  /// histories that show where each event led. `body`'s errors come back as `.caller`.
  @_spi(Internals) public func replayHistory(
    of session: SessionID, from: Int = 1, to: Int? = nil, _ body: (AnyEvent, AnyCoordinator) throws -> Void
  ) throws(StoreError) {
    try withReadTransaction { engine throws(StoreError) in
      let count = try engine.eventCount(of: session)
      let first = max(1, from)
      guard first <= count else { throw StoreError.seqBeyondHistory(session: session, seq: first, last: count) }
      var replay = Rehydration(
        of: session, from: first > 1 ? try engine.rehydrate(session, at: min(first - 1, count)) : nil)
      try engine.forEachEvent(of: session, from: first, to: to ?? count) { row throws(StoreError) in
        let event = try StoreError.ruling(replay.take(row))
        if let state = replay.state { try StoreEngine.callingBack { try body(event, state) } }
      }
    }
  }

  /// Checks sessions (all of them by default): seqs without gaps, the hash chain, every snapshot
  /// against the replayed state, and the session's counters. Each session is read one at a
  /// time; the results are one small value each.
  public func verify(_ sessions: [SessionID]? = nil) throws(StoreError) -> [VerificationResult] {
    try withReadTransaction { engine throws(StoreError) in
      var results: [VerificationResult] = []
      try engine.verify(sessions) { results.append($0) }
      return results
    }
  }
}
