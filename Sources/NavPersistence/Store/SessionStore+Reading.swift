@_spi(Internals) import NavCore
@_spi(Internals) import NavHistory

extension SessionStore {
  /// The session's state after event `seq` (default: its last event), and that seq: one read
  /// (see `StoreReader.state(of:at:)`).
  public func state(of session: SessionID, at seq: Int? = nil) throws(StoreError) -> SessionState {
    try read { reader throws(StoreError) in try reader.state(of: session, at: seq) }
  }

  /// The session's state after event `seq` (default: its last), decoded into the app's own
  /// `Screen` type, for showing at launch: one read (see `StoreReader.restore(_:as:at:policy:)`,
  /// which says what `policy` drops and when nothing is restorable).
  public func restore<AppScreen: NavigationScreen>(
    _ session: SessionID, as type: AppScreen.Type, at seq: Int? = nil, policy: RestorePolicy = .dropUndecodable
  ) throws(StoreError) -> RestoredSession<AppScreen> {
    try read { reader throws(StoreError) in try reader.restore(session, as: type, at: seq, policy: policy) }
  }

  /// The session's events from `from` to `to` (inclusive), with their hashes: one read.
  public func history(of session: SessionID, from: Int = 1, to: Int? = nil) throws(StoreError) -> [AnyEvent] {
    try read { reader throws(StoreError) in try reader.history(of: session, from: from, to: to) }
  }

  /// Every session, ordered by id: one small summary per session, in one read.
  public func sessions() throws(StoreError) -> [SessionSummary] {
    try read { reader throws(StoreError) in try reader.sessions() }
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
    try read { reader throws(StoreError) in try reader.summary(of: session) }
  }

  /// The session whose last event is the most recent (ties go to the greatest id), or `nil` for
  /// an empty store: the one an app restores at launch. One index lookup.
  public func latestSession() throws(StoreError) -> SessionSummary? {
    try read { reader throws(StoreError) in try reader.latestSession() }
  }

  /// Calls `body` with each event from `from` to `to` and the session's state after it, for
  /// histories that show where each event led. `body`'s errors come back as `.caller`.
  package func replayHistory(
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
  /// against the replayed state, and the session's counters, in one read.
  public func verify(_ sessions: [SessionID]? = nil) throws(StoreError) -> [VerificationResult] {
    try read { reader throws(StoreError) in try reader.verify(sessions) }
  }
}
