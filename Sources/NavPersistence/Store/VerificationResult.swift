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
  public var clockJumps: Int = 0
  /// The first such event's seq.
  public var firstClockJump: Int?

  /// Whether the session is intact.
  public var isIntact: Bool { failure == nil }

  /// The first bad seq and what is wrong with it.
  public struct Failure: Hashable, Sendable, CustomStringConvertible {
    /// The first seq at which the history is not what the chain says it was.
    public var seq: Int
    /// What is wrong.
    public var reason: String

    public var description: String { "seq \(seq): \(reason)" }
  }
}
