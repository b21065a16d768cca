import NavCore
@_spi(Internals) import NavHistory

/// What an audit against a checkpoint found of one session the checkpoint names.
package struct CheckpointFinding: Sendable, Hashable, CustomStringConvertible {
  /// The session as the checkpoint committed to it.
  package var entry: CheckpointEntry
  /// What the store holds of it now.
  package var status: Status

  /// What the store holds of a session the checkpoint names.
  package enum Status: Sendable, Hashable {
    /// The event at the checkpointed seq has the checkpointed chain value; `later` events
    /// were appended since (the chain extends the checkpoint).
    case intact(later: Int)
    /// The session has fewer events than it had at the checkpoint (its counters fixed or not).
    case truncated(events: Int)
    /// The event at the checkpointed seq has another chain value: history up to it was
    /// rewritten (a whole chain recomputed, or the event replaced).
    case rewritten
    /// The session's events are gone, and no tombstone says it was forgotten.
    case vanished
    /// A tombstone says the session was forgotten at this time, before the checkpoint that
    /// names it: the tombstone was made up.
    case forgottenBeforeCheckpoint(at: Timestamp)
    /// The session was forgotten through the store (`forget`, `prune`) at this time: an
    /// erasure on record, not tampering.
    case forgotten(at: Timestamp)
  }

  /// A finding from its parts.
  package init(entry: CheckpointEntry, status: Status) {
    self.entry = entry
    self.status = status
  }

  /// What a store holding `lastSeq` events of the session (nil: none), `hashAtSeq` at the
  /// checkpointed seq and maybe a tombstone holds of `entry`, for a checkpoint made at `made`:
  /// the one rule every engine's audit applies to what it read.
  ///
  /// A tombstone counts only where it is consistent: the session has no events left, it was
  /// forgotten after the checkpoint, and at or after the checkpointed seq (with that chain value
  /// when at it). Otherwise the session is judged by its events as if there were none.
  package static func judging(
    _ entry: CheckpointEntry, lastSeq: Int?, hashAtSeq: [UInt8]?, tombstone: Tombstone?,
    checkpointMadeAt made: Timestamp
  ) -> Status {
    if lastSeq == nil, let tombstone {
      guard tombstone.lastSeq >= entry.seq else { return .truncated(events: tombstone.lastSeq) }
      guard tombstone.lastSeq != entry.seq || tombstone.headHash == entry.hash else { return .rewritten }
      guard tombstone.forgottenAt >= made else { return .forgottenBeforeCheckpoint(at: tombstone.forgottenAt) }
      return .forgotten(at: tombstone.forgottenAt)
    }
    guard let lastSeq else { return .vanished }
    guard lastSeq >= entry.seq else { return .truncated(events: lastSeq) }
    guard hashAtSeq == entry.hash else { return .rewritten }
    return .intact(later: lastSeq - entry.seq)
  }

  /// Whether the store still holds what the checkpoint committed to.
  package var isIntact: Bool {
    if case .intact = status { return true }
    return false
  }

  /// Whether the finding is tampering (a session forgotten through the store is not).
  package var isProblem: Bool {
    switch status {
    case .intact, .forgotten: false
    case .truncated, .rewritten, .vanished, .forgottenBeforeCheckpoint: true
    }
  }

  package var description: String {
    let at = "\(entry.session) at seq \(entry.seq)"
    switch status {
    case .intact(let later): return "\(at): ok" + (later > 0 ? " (\(later) event\(later == 1 ? "" : "s") since)" : "")
    case .truncated(let events):
      return "\(at): TRUNCATED, the session now has \(events) event\(events == 1 ? "" : "s")"
    case .rewritten: return "\(at): REWRITTEN, the chain value there is not the checkpoint's"
    case .vanished:
      return "\(at): VANISHED, the session is no longer in the store, and no tombstone says it was forgotten"
    case .forgotten(let time): return "\(at): forgotten at \(time) (an erasure on record, not tampering)"
    case .forgottenBeforeCheckpoint(let time):
      return "\(at): FALSE TOMBSTONE, it says the session was forgotten at \(time), before the checkpoint"
    }
  }
}

/// The outcome of an audit against a checkpoint.
package struct CheckpointAudit: Sendable, Hashable {
  /// The checkpoint, as its signed text states it.
  package var checkpoint: Checkpoint
  /// The sessions it names, checked.
  package var sessions = 0
  /// Those forgotten since, through the store.
  package var forgotten = 0
  /// Those neither intact nor forgotten: tampering.
  package var problems = 0
  /// The first session tampered with.
  package var firstProblem: CheckpointFinding?

  /// An audit against `checkpoint` with nothing checked yet.
  package init(checkpoint: Checkpoint) {
    self.checkpoint = checkpoint
  }

  /// Counts one session's finding.
  package mutating func add(_ finding: CheckpointFinding) {
    sessions += 1
    if case .forgotten = finding.status { forgotten += 1 }
    guard finding.isProblem else { return }
    problems += 1
    if firstProblem == nil { firstProblem = finding }
  }
}
