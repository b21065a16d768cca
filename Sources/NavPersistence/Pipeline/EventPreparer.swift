import NavCore
@_spi(Internals) import NavHistory

/// The preparing thread's half of an append: each event applied, encoded and hashed after the
/// head its session had after the event before it, so the writer has only SQLite's work left.
///
/// It keeps its own heads (the state after each session's last prepared event), bounded like
/// the writer's. A session it has not seen starts empty when the event is a `start`, and
/// otherwise from the head the store's file holds (read on a reader of its own), when the store
/// has readers. An event it cannot prepare (a seq claimed out of turn, a refused operation, a
/// session whose head it cannot read) goes to the writer as it is: the writer appends it the
/// sequential way, which decides and words the outcome exactly as a lone append does. A wrong
/// guess costs time, never correctness: the writer stores a prepared event only when the
/// session's head is still the one it was prepared after.
package struct EventPreparer {
  /// A session's head as the preparer expects it: seq 0, the genesis hash and no state for a
  /// session with no events.
  package struct Expected {
    var seq: Int
    var hash: [UInt8]
    var state: RunningState?
    /// The lifecycle phase after `seq`.
    var phase: SessionPhase
  }

  private let snapshotInterval: Int
  private let storedHead: (SessionID) -> Expected?
  /// The last event's session, kept out of `heads`: consecutive events of one session (the
  /// usual order) need no lookup, and its state is edited in place.
  private var current: (session: SessionID, head: Expected)?
  /// The heads of the sessions met before the current one (each with its state).
  private var heads: HeadCache<SessionID, Expected>

  /// A preparer writing snapshots every `snapshotInterval` events, remembering up to
  /// `headCapacity` sessions, and asking `storedHead` for the head of a session it meets in
  /// the middle of its history (`nil`: not known).
  init(snapshotInterval: Int, headCapacity: Int, storedHead: @escaping (SessionID) -> Expected?) {
    self.snapshotInterval = snapshotInterval
    self.storedHead = storedHead
    heads = HeadCache(
      capacity: headCapacity, weightLimit: StoreOptions.defaultHeadCacheWeightLimit,
      weight: { $0.state?.memoryWeight ?? 0 })
  }

  /// The event prepared, or `nil` when the writer should append it itself.
  mutating func prepare(_ event: AnyEvent) -> PreparedEvent? {
    let session = event.session
    guard var head = takeHead(of: session, for: event) else { return nil }
    if head.seq == Int.max || event.seq.map({ $0 != head.seq + 1 }) == true {
      current = (session, head)  // a duplicate or a conflict: the writer decides
      return nil
    }
    var running = head.state
    head.state = nil  // the only reference left is `running`, edited in place
    do {
      let prepared = try PreparedEvent.prepare(
        event, afterSeq: head.seq, hash: head.hash, phase: head.phase, state: &running,
        snapshotInterval: snapshotInterval)
      current = (session, Expected(seq: prepared.seq, hash: prepared.hash, state: running, phase: prepared.phase))
      return prepared
    } catch {
      if case .rejected = error {
        head.state = running  // unchanged by a refused operation
        current = (session, head)
      }
      // Otherwise the state was edited before the failure: the session is read afresh if met again.
      return nil
    }
  }

  /// The session's expected head, taken out of the preparer's memory.
  private mutating func takeHead(of session: SessionID, for event: AnyEvent) -> Expected? {
    if let current, current.session == session {
      self.current = nil
      return current.head
    }
    if let current, current.head.state != nil {
      heads.insert(current.head, for: current.session)
    }
    current = nil
    if let cached = heads.remove(session) { return cached }
    if case .start = event.operation.kind {
      return Expected(seq: 0, hash: HashChain.genesis, state: nil, phase: .foreground)
    }
    return storedHead(session)
  }
}
