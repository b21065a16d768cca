@_spi(Internals) import NavCore

/// An event made ready to store: applied, written in the wire format, hashed into its
/// session's chain, with the snapshot its seq calls for. What remains is SQLite's work.
///
/// It was prepared on the assumption that the session's head was `previousSeq` and
/// `previousHash`; the writer stores it only when the session's row still says so (the hash
/// chain binds the whole history, so an equal head hash means an equal state).
package struct PreparedEvent: Sendable {
  /// The event as stored: its seq and hash set.
  package var event: AnyEvent
  /// The session's seq before this event (0 for a new session).
  package var previousSeq: Int
  /// The chain value before this event (`HashChain.genesis` for a new session).
  package var previousHash: [UInt8]
  /// The chain value after this event.
  package var hash: [UInt8]
  /// The stored operation: its RFC 8785 text.
  package var operationBytes: [UInt8]
  /// The visible depth of the state after this event, for the session row.
  package var depth: Int
  /// The lifecycle phase after this event, for the session row.
  package var phase: SessionPhase
  /// The state after this event in the wire format, when its seq is a snapshot's.
  package var snapshot: [UInt8]?

  /// The event's seq.
  package var seq: Int { previousSeq + 1 }

  /// Prepares `event` as the session's next after `previousSeq`, `previousHash` and `phase`
  /// (the lifecycle phase after `previousSeq`), editing
  /// `running` (the state after `previousSeq`, `nil` for a new session) in place: it is the
  /// new state when this returns, and unchanged when the operation is refused (an operation
  /// the state forbids, or one that would pass the wire format's tree limits). Throws what an
  /// append throws for the event itself: `.rejected`, `.unencodable`, `.hashMismatch`.
  /// `previousSeq` must be below `Int.max`.
  package static func prepare(
    _ event: AnyEvent, afterSeq previousSeq: Int, hash previousHash: [UInt8], phase previousPhase: SessionPhase,
    state running: inout RunningState?, snapshotInterval: Int
  ) throws(HistoryError) -> PreparedEvent {
    let session = event.session
    let next = previousSeq + 1
    // Taken apart, so the tree's only reference is `tree`, edited in place.
    var tree = running?.tree
    var measure = running?.measure ?? TreeMeasure()
    var schedule = running?.snapshots ?? SnapshotSchedule()
    running = nil
    let state: AnyCoordinator
    let phase: SessionPhase
    do {
      if tree == nil {
        // The state first: an event before `start` is refused for that, whatever it is.
        state = try event.operation.apply(toSession: &tree, measure: &measure)
        phase = try previousPhase.after(event.operation)
      } else {
        // The phase first: nothing after `end` may change the tree, even when refused.
        phase = try previousPhase.after(event.operation)
        state = try event.operation.apply(toSession: &tree, measure: &measure)
      }
    } catch {
      // Refused: the tree and its measure are as they were.
      running = tree.map { RunningState(tree: $0, measure: measure, snapshots: schedule) }
      throw HistoryError.rejected(session: session, seq: next, error)
    }
    running = RunningState(tree: state, measure: measure, snapshots: schedule)
    var stored = event
    stored.seq = next
    stored.hash = nil
    // One encoding serves both the hash and the stored operation text.
    let eventBytes: [UInt8]
    let operationBytes: [UInt8]
    do {
      (eventBytes, operationBytes) = try WireFormat.canonicalEncoding(of: stored)
    } catch {
      throw HistoryError.unencodable(error)  // a time past 9999, an integer a double cannot hold
    }
    let hash = HashChain.hash(ofCanonicalBytes: eventBytes, after: previousHash)
    let hashText = HashChain.hex(hash)
    if let claimed = event.hash, claimed != hashText {
      throw HistoryError.hashMismatch(session: session, seq: next, claimed: claimed, computed: hashText)
    }
    stored.hash = hashText
    var snapshot: [UInt8]?
    schedule.noteEvent(operationBytes: operationBytes.count)
    if schedule.isDue(interval: snapshotInterval) {
      do {
        let bytes = try WireFormat.canonicalBytes(state)
        schedule.noteSnapshot(bytes: bytes.count)
        snapshot = bytes
      } catch {
        throw HistoryError.unencodable(error)
      }
    }
    running?.snapshots = schedule
    return PreparedEvent(
      event: stored, previousSeq: previousSeq, previousHash: previousHash, hash: hash, operationBytes: operationBytes,
      depth: state.visibleDepth, phase: phase, snapshot: snapshot)
  }
}
