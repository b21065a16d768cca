import NavHistory

/// What a `verify` of many sessions found, in numbers: the per-session results stream to the
/// caller, so checking a store of any size keeps only this.
@_spi(Internals) public struct VerificationSummary: Hashable, Sendable {
  /// Sessions checked.
  public var sessions = 0
  /// Events checked (in a failed session, those before its first problem).
  public var events = 0
  /// Sessions that failed.
  public var failures = 0
  /// The first session that failed, and how, in id order.
  public var firstFailure: VerificationResult?

  /// Whether every session checked is intact.
  public var isIntact: Bool { failures == 0 }

  /// Creates an empty summary.
  package init() {}

  /// Counts one session's result in.
  package mutating func add(_ result: VerificationResult) {
    sessions += 1
    events += result.eventCount
    if !result.isIntact {
      failures += 1
      if firstFailure == nil { firstFailure = result }
    }
  }
}
