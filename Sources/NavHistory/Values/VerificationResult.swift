import NavCore

/// What `verify` found for one session.
public struct VerificationResult: Hashable, Sendable {
  /// The session checked.
  public var session: SessionID
  /// How many events were checked.
  public var eventCount: Int
  /// The first problem, or `nil` when the session is intact.
  public var failure: Failure?

  /// How many events are earlier than the event before them: not a problem (times are kept as
  /// the device gave them), but worth knowing before reading durations. Counted up to the first
  /// problem.
  package var clockJumps: Int = 0
  /// The first such event's seq.
  package var firstClockJump: Int?

  /// Whether the session is intact.
  public var isIntact: Bool { failure == nil }

  /// The first bad seq and what is wrong with it.
  public struct Failure: Hashable, Sendable, CustomStringConvertible {
    /// The first seq at which the history is not what the chain says it was.
    public var seq: Int
    /// What is wrong.
    public var problem: VerificationProblem

    /// A problem at `seq`.
    package init(seq: Int, problem: VerificationProblem) {
      self.seq = seq
      self.problem = problem
    }

    public var description: String { "seq \(seq): \(problem)" }
  }
}

/// What `verify` found wrong with a session, the first such thing in the order of its checks.
///
/// Every case means the file was changed outside NavStore (or damaged): the store never writes
/// such history itself, except `treeTooLarge`, which a store written before the wire format's
/// tree limits may hold.
public enum VerificationProblem: Hashable, Sendable, CustomStringConvertible {
  /// Event `seq` is missing: the next stored event has a later seq.
  case missingEvent(seq: Int, nextStored: Int)
  /// The stored event cannot be read as wire format.
  case unreadableEvent
  /// The stored event reads, but cannot be written back in the wire format to be hashed.
  case unhashableEvent
  /// The event's hash is not the chain's: it was changed, or events were removed or reordered.
  case hashMismatch
  /// The event's operation does not apply to the state before it.
  case operationDoesNotApply
  /// The event's operation makes a state past one of the wire format's tree limits.
  case treeTooLarge(TreeLimit)
  /// A snapshot differs from the state the events replay to.
  case snapshotDiffers
  /// Events are stored for the session, but its session row is missing.
  case sessionRowMissing
  /// The session row counts a different number of events than are stored.
  case eventCountDiffers(recorded: Int, stored: Int)
  /// The session row's head hash is not the chain's last value.
  case headHashDiffers
  /// The session row's `restoredFrom` link differs from its start event's.
  case restoredFromDiffers
  /// The session row's context differs from its start event's.
  case contextDiffers
  /// The session row's launch columns (outcome, reason, dropped routes) differ from its start
  /// event's `launch`.
  case launchDiffers
  /// The session row's clock columns (jumps, duration, foreground time) differ from its events'
  /// times and lifecycle.
  case clockColumnsDiffer
  /// The session row's first and last times differ from its first and last events'.
  case timeColumnsDiffer
  /// The session row's depth differs from its last state's.
  case depthDiffers
  /// The session row's lifecycle phase differs from its events'.
  case phaseDiffers
  /// A snapshot is stored for an event that does not exist.
  case orphanSnapshot

  public var description: String {
    switch self {
    case .missingEvent(let seq, let next): "event \(seq) is missing (the next stored event is \(next))"
    case .unreadableEvent: "the stored event cannot be read"
    case .unhashableEvent: "the stored event cannot be written in the wire format, so it cannot be hashed"
    case .hashMismatch: "the hash does not match the chain: the event was changed, or events were removed or reordered"
    case .operationDoesNotApply: "the operation does not apply to the state before it"
    case .treeTooLarge(let limit): "the operation makes a state past the wire format's limit of \(limit)"
    case .snapshotDiffers: "the snapshot differs from the replayed state"
    case .sessionRowMissing: "events are stored for this session, but its session row is missing"
    case .eventCountDiffers(let recorded, let stored): "the session records \(recorded) events but \(stored) are stored"
    case .headHashDiffers: "the session's head hash is not the chain's last value"
    case .restoredFromDiffers: "the session's restoredFrom columns differ from its start event"
    case .contextDiffers: "the session's context column differs from its start event's context"
    case .launchDiffers:
      "the session's launch, launch_reason and dropped_routes columns differ from its start event's launch"
    case .clockColumnsDiffer:
      "the session's clock_jumps, duration_ms and foreground_ms columns differ from its events' times and lifecycle"
    case .timeColumnsDiffer: "the session's first_at and last_at columns differ from its first and last events' times"
    case .depthDiffers: "the session's depth column differs from its last state's"
    case .phaseDiffers: "the session's phase column differs from its lifecycle events'"
    case .orphanSnapshot: "a snapshot exists for an event that does not"
    }
  }
}
