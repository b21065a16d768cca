@_spi(Internals) import NavCore

/// What `verify` checks of one session, apart from how its rows are read: the same rules for
/// every storage engine. The engine hands it the session's snapshots, then its events in seq
/// order, then its row; the first problem found is the result.
///
/// Events: seqs without gaps from 1, each readable, its hash the chain's, its operation
/// applying to the state before it, a snapshot at its seq equal to the replayed state. The row:
/// present, with the events' count and last chain value, and its derived columns (the
/// `restoredFrom` link, context, clock summary, first and last times, depth, lifecycle phase)
/// what the events say.
package struct HistoryAudit {
  private let session: SessionID
  private var snapshots: [Int: [UInt8]]
  private var state: AnyCoordinator?
  private var link: SessionLink?
  /// The start's context, as the session row keeps it (canonical JSON text).
  private var contextText: String?
  /// What the row must sum up of the events taken so far, by the rule appends write it with;
  /// its depth is left at 0 until the verdict (the last state's, worked out once there: a deep
  /// state's depth costs a walk of its visible path).
  private var totals = SessionTotals()
  /// The seq of the first event whose time is earlier than the one before it.
  private var firstClockJump: Int?
  private var expectedSeq: Int { totals.count + 1 }
  /// The first problem, once found: later events are not looked at.
  package private(set) var failure: VerificationResult.Failure?

  /// An audit of `session`, whose stored snapshots (state text by seq) are `snapshots`.
  package init(of session: SessionID, snapshots: [Int: [UInt8]]) {
    self.session = session
    self.snapshots = snapshots
  }

  /// Takes the session's next stored event (nothing more once a problem is found).
  package mutating func take(_ stored: StoredEventRow) {
    guard failure == nil else { return }
    if let problem = problem(with: stored) {
      failure = .init(seq: problem.seq, problem: problem.problem)
    }
  }

  private mutating func problem(with stored: StoredEventRow) -> (seq: Int, problem: VerificationProblem)? {
    guard stored.seq == expectedSeq else {
      return (expectedSeq, .missingEvent(seq: expectedSeq, nextStored: stored.seq))
    }
    guard let event = try? stored.decoded() else { return (stored.seq, .unreadableEvent) }
    guard let hash = try? HashChain.hash(of: event, after: totals.headHash) else {
      return (stored.seq, .unhashableEvent)
    }
    guard hash == stored.hash else { return (stored.seq, .hashMismatch) }
    guard let next = try? event.operation.apply(to: state), let nextPhase = try? totals.phase.after(event.operation)
    else {
      return (stored.seq, .operationDoesNotApply)
    }
    if let snapshot = snapshots.removeValue(forKey: stored.seq) {
      guard (try? WireFormat.decode(AnyCoordinator.self, from: snapshot)) == next else {
        return (stored.seq, .snapshotDiffers)
      }
    }
    if stored.seq == 1 {
      link = event.operation.restoredFrom
      contextText = event.operation.context.flatMap { try? WireFormat.canonicalString($0) }
    }
    let jumps = totals.clockJumps
    totals = totals.adding(at: event.at, hash: hash, depth: 0, phase: nextPhase)
    if totals.clockJumps > jumps, firstClockJump == nil { firstClockJump = stored.seq }
    state = next
    return nil
  }

  /// The verdict, once every event was taken, given the session's row (`nil`: it has none).
  package func result(row: SessionRecord?) -> VerificationResult {
    let failure = failure ?? rowProblem(row).map { .init(seq: $0.seq, problem: $0.problem) }
    let checked = failure.map { $0.seq - 1 } ?? expectedSeq - 1
    return VerificationResult(
      session: session, eventCount: checked, failure: failure, clockJumps: totals.clockJumps,
      firstClockJump: firstClockJump)
  }

  private func rowProblem(_ row: SessionRecord?) -> (seq: Int, problem: VerificationProblem)? {
    let last = expectedSeq - 1
    guard let row else { return (1, .sessionRowMissing) }
    if last != row.eventCount {
      return (min(last, row.eventCount) + 1, .eventCountDiffers(recorded: row.eventCount, stored: last))
    }
    if totals.headHash != (row.headHash ?? HashChain.genesis) { return (max(last, 1), .headHashDiffers) }
    if last > 0, let problem = derivedColumnsProblem(row) { return (1, problem) }
    if let orphan = snapshots.keys.min() { return (orphan, .orphanSnapshot) }
    return nil
  }

  /// What the row's derived columns get wrong: its link and its context against the start
  /// event's (empty when it has none), its clock columns against the events' times, then its first and last
  /// times and its depth (which listings, `latestSession` and `prune` read as stored).
  private func derivedColumnsProblem(_ row: SessionRecord) -> VerificationProblem? {
    let linkMatches =
      if let link {
        row.restoredFromSession.map { $0.utf8.elementsEqual(link.session.rawValue.utf8) } == true
          && row.restoredFromSeq == Int64(link.seq)
      } else {
        row.restoredFromSession == nil && row.restoredFromSeq == nil
      }
    guard linkMatches else { return .restoredFromDiffers }
    let contextMatches =
      switch (row.context, contextText) {
      case (nil, nil): true
      case (let stored?, let expected?): stored.utf8.elementsEqual(expected.utf8)
      default: false
      }
    guard contextMatches else { return .contextDiffers }
    guard row.clockJumps == totals.clockJumps, row.durationMilliseconds == totals.durationMilliseconds,
      row.foregroundMilliseconds == totals.foregroundMilliseconds
    else {
      return .clockColumnsDiffer
    }
    guard row.firstAt != nil, row.lastAt != nil, row.firstAt == totals.firstAt, row.lastAt == totals.lastAt else {
      return .timeColumnsDiffer
    }
    guard row.depth == (state?.visibleDepth ?? 0) else { return .depthDiffers }
    guard row.phase == totals.phase.rawValue else { return .phaseDiffers }
    return nil
  }
}
