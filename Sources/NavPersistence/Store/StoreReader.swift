import NavContract
@_spi(Internals) import NavCore
@_spi(Internals) import NavHistory

/// The store's reads inside one transaction: every call through one reader sees the same
/// snapshot of the file, whatever commits meanwhile. `SessionStore.read(_:)` lends one for the
/// length of its closure; a `StoreWriter` lends one that sees its own writes so far.
///
/// Not `Sendable`: in Swift 6 language mode the compiler keeps it inside the closure it was lent
/// to, and it is not to be kept past that closure in any mode.
public struct StoreReader {
  let engine: StoreEngine

  /// The session's state after event `seq` (default: its last event), and that seq.
  public func state(of session: SessionID, at seq: Int? = nil) throws(StoreError) -> SessionState {
    let count = try engine.eventCount(of: session)
    let target = seq ?? count
    guard (1...count).contains(target) else {
      throw StoreError.seqBeyondHistory(session: session, seq: target, last: count)
    }
    return SessionState(session: session, seq: target, state: try engine.rehydrate(session, at: target))
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
    _ = try engine.eventCount(of: session)
    var events: [AnyEvent] = []
    try engine.forEachEvent(of: session, from: from, to: to ?? Int.max) { row throws(StoreError) in
      events.append(try StoreError.ruling(row.decoded()))
    }
    return events
  }

  /// Every session, ordered by id: one small summary per session (an app's own store holds
  /// few; the command line walks a fleet's one at a time).
  public func sessions() throws(StoreError) -> [SessionSummary] {
    var summaries: [SessionSummary] = []
    try engine.forEachSessionSummary { summaries.append($0) }
    return summaries
  }

  /// One session as `sessions()` lists it: one key lookup. Throws `.unknownSession` for a
  /// session with no events.
  public func summary(of session: SessionID) throws(StoreError) -> SessionSummary {
    guard let summary = try engine.sessionSummary(session) else { throw StoreError.unknownSession(session) }
    return summary
  }

  /// The session whose last event is the most recent (ties go to the greatest id), or `nil` for
  /// an empty store: the one an app restores at launch. One index lookup, whatever the number of
  /// sessions.
  public func latestSession() throws(StoreError) -> SessionSummary? {
    try engine.latestSessionSummary()
  }

  /// Checks sessions (all of them by default): seqs without gaps, the hash chain, every snapshot
  /// against the replayed state, and the session's counters. Each session is read one at a
  /// time; the results are one small value each.
  public func verify(_ sessions: [SessionID]? = nil) throws(StoreError) -> [VerificationResult] {
    var results: [VerificationResult] = []
    try engine.verify(sessions) { results.append($0) }
    return results
  }

  // MARK: What the collector's SQLite engine reads between appends, and its answer to heads

  /// The session's last seq (0: no event, or no session).
  package func eventCount(of session: SessionID) throws(StoreError) -> Int {
    try engine.sessionRow(session)?.count ?? 0
  }

  /// The session's last seq and the chain value after it, lowercase hex (`nil` before the first
  /// event).
  package func head(of session: SessionID) throws(StoreError) -> SessionHead {
    guard let row = try engine.sessionRow(session), row.count > 0 else { return .none }
    return SessionHead(seq: row.count, hash: HashChain.hex(row.headHash))
  }

  /// The context the session's stored `start` names (`nil`: no event stored, or no context, or
  /// one edited out of shape).
  package func startContext(of session: SessionID) throws(StoreError) -> SessionContext? {
    guard let record = try engine.sessionRecord(session), record.eventCount > 0 else { return nil }
    return record.context.flatMap { try? WireFormat.decode(SessionContext.self, from: $0) }
  }
}

/// A reader is lent for one closure and holds its transaction's connection: it is never to
/// cross to another task or thread.
@available(*, unavailable)
extension StoreReader: Sendable {}
