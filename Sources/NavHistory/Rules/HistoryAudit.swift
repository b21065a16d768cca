@_spi(Internals) import NavCore

/// What `verify` checks of one session, apart from how its rows are read: the same rules for
/// every storage engine. The engine hands it the session's events in seq order, each with the
/// snapshot stored at its seq, a page at a time (so memory holds a page, whatever the
/// session's length), then the first snapshot it found at a seq with no event, then its row;
/// the first problem found is the result.
///
/// Events: seqs without gaps from 1, each readable, its hash the chain's, its operation
/// applying to the state before it within the wire format's tree limits, a snapshot at its seq
/// equal to the replayed state. The row: present, with the events' count and last chain value,
/// and its derived columns (the `restoredFrom` link, context, launch, clock summary, first and last
/// times, depth, lifecycle phase) what the events say. No snapshot without its event.
///
/// A budget, when given, is charged for every event and snapshot taken: once it is spent, the
/// audit stops and has no verdict (`result` is `nil`), so a read that verifies (a listing's
/// filter, a console page, a report) costs what it may, whatever the session.
package struct HistoryAudit: Sendable {
  package let session: SessionID
  private var state: AnyCoordinator?
  /// `state`'s measure, for the wire format's tree limits.
  private var measure = TreeMeasure()
  private var link: SessionLink?
  /// What the start says its launch did, by the rule the row is written with (`nil`: a start
  /// whose columns cannot be written, which the row cannot match either).
  private var startColumns: SessionStartColumns?
  /// What the row must sum up of the events taken so far, by the rule appends write it with;
  /// its depth is left at 0 until the verdict (the last state's, worked out once there: a deep
  /// state's depth costs a walk of its visible path).
  private var totals = SessionTotals()
  /// The seq of the first event whose time is earlier than the one before it.
  private var firstClockJump: Int?
  private var expectedSeq: Int { totals.count + 1 }
  /// The first problem, once found: later events are not looked at.
  package private(set) var failure: VerificationResult.Failure?
  /// The work it may still do, when it has a budget.
  package private(set) var budget: WorkBudget?
  /// Whether the budget ran out before the audit was done.
  package private(set) var ranOut = false

  /// The events an engine reads at a time.
  package static let pageSize = 256

  /// An audit of `session`, which may spend `budget` when one is given.
  package init(of session: SessionID, budget: WorkBudget? = nil) {
    self.session = session
    self.budget = budget
  }

  /// Whether the audit wants more events: no problem found, and budget left.
  package var wantsMore: Bool { failure == nil && !ranOut }

  /// Takes the session's next stored event, with the snapshot stored at its seq (nothing more
  /// once a problem is found or the budget is spent). Returns `wantsMore`.
  @discardableResult
  package mutating func take(_ stored: StoredEventRow, snapshot: [UInt8]?) -> Bool {
    guard wantsMore else { return false }
    if var spending = budget {
      let goesOn =
        spending.chargeEvent(bytes: stored.chargedBytes) && spending.chargeSnapshot(bytes: snapshot?.count ?? 0)
      budget = spending
      guard goesOn else {
        ranOut = true
        return false
      }
    }
    if let problem = problem(with: stored, snapshot: snapshot) {
      failure = .init(seq: problem.seq, problem: problem.problem)
    }
    return wantsMore
  }

  /// Notes the first snapshot stored at a seq that has no event (`nil`: none).
  package mutating func noteOrphanSnapshot(at seq: Int?) {
    if let seq { orphanSnapshot = min(orphanSnapshot ?? seq, seq) }
  }
  private var orphanSnapshot: Int?

  private mutating func problem(with stored: StoredEventRow, snapshot: [UInt8]?) -> (
    seq: Int, problem: VerificationProblem
  )? {
    guard stored.seq == expectedSeq else {
      return (expectedSeq, .missingEvent(seq: expectedSeq, nextStored: stored.seq))
    }
    guard let event = try? stored.decoded() else { return (stored.seq, .unreadableEvent) }
    guard let hash = try? HashChain.hash(of: event, after: totals.headHash) else {
      return (stored.seq, .unhashableEvent)
    }
    guard hash == stored.hash else { return (stored.seq, .hashMismatch) }
    guard let nextPhase = try? totals.phase.after(event.operation) else { return (stored.seq, .operationDoesNotApply) }
    do throws(NavigationError) {
      // In place: the audit stops at its first problem, so a failure needs no state kept.
      try event.operation.apply(toSession: &state, measure: &measure)
    } catch {
      if case .treeTooLarge(let limit) = error.reason { return (stored.seq, .treeTooLarge(limit)) }
      return (stored.seq, .operationDoesNotApply)
    }
    if let snapshot {
      guard (try? WireFormat.decode(AnyCoordinator.self, from: snapshot)) == state else {
        return (stored.seq, .snapshotDiffers)
      }
    }
    if stored.seq == 1 {
      link = event.operation.restoredFrom
      startColumns = try? SessionStartColumns(start: event.operation)
    }
    let jumps = totals.clockJumps
    totals = totals.adding(at: event.at, hash: hash, depth: 0, phase: nextPhase)
    if totals.clockJumps > jumps, firstClockJump == nil { firstClockJump = stored.seq }
    return nil
  }

  /// The verdict, once every event was taken, given the session's row (`nil`: it has none);
  /// `nil` when the budget ran out first.
  package func budgetedResult(row: SessionRecord?) -> VerificationResult? {
    ranOut ? nil : result(row: row)
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
    if let orphanSnapshot { return (orphanSnapshot, .orphanSnapshot) }
    return nil
  }

  /// What the row's derived columns get wrong: its link, context and launch against the start
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
    // Byte for byte: a hand edit to another normalization is an edit.
    func same(_ stored: String?, _ expected: String?) -> Bool {
      switch (stored, expected) {
      case (nil, nil): true
      case (let stored?, let expected?): stored.utf8.elementsEqual(expected.utf8)
      default: false
      }
    }
    guard same(row.context, startColumns?.context) else { return .contextDiffers }
    guard let startColumns, same(row.launch, startColumns.launch), same(row.launchReason, startColumns.launchReason),
      row.droppedRoutes == startColumns.droppedRoutes
    else {
      return .launchDiffers
    }
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
