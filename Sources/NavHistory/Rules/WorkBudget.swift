/// How much work a read that replays histories may do (a page of a listing filtered by a screen
/// or by verification, a console page, a report's verification), charged by the work done as it
/// is done: the bytes of every stored event and snapshot it reads, plus a fixed cost per event.
/// A long or deep session is charged for what it costs, and the budget is checked at every
/// event, not only between sessions, so no session, however it was made, holds a read past it.
package struct WorkBudget: Sendable {
  /// The units one event costs beyond its bytes (reading, decoding and applying it): in a
  /// release build an event costs about what 500 bytes of it do (scenario 13 of the benchmarks:
  /// about 4 µs an event, against about 10 ns a byte), so a budget is about a time.
  package static let unitsPerEvent = 512

  /// The units the read may spend.
  package let limit: Int
  /// The units spent so far.
  package private(set) var spent = 0
  /// When the read must stop, whatever it has spent (`nil`: no time limit).
  private let deadline: ContinuousClock.Instant?

  /// A budget of `units`, and of `time` from now when given.
  package init(units: Int, time: Duration? = nil) {
    limit = max(0, units)
    deadline = time.map { ContinuousClock.now + $0 }
  }

  /// Whether the read must stop: every unit spent, or its time up.
  package var isSpent: Bool {
    if spent >= limit { return true }
    guard let deadline else { return false }
    return ContinuousClock.now >= deadline
  }

  /// Charges a stored event whose row holds `bytes` bytes of operation and cause; returns
  /// whether the budget pays for it (the event may be read; `isSpent` says whether another may).
  @discardableResult
  package mutating func chargeEvent(bytes: Int) -> Bool {
    spent += bytes + Self.unitsPerEvent
    return paysFor
  }

  /// Charges a stored state (a snapshot) of `bytes` bytes read and decoded; returns whether the
  /// budget pays for it.
  @discardableResult
  package mutating func chargeSnapshot(bytes: Int) -> Bool {
    spent += bytes
    return paysFor
  }

  /// Whether what was charged last is within the budget: spent up to the limit, in time.
  private var paysFor: Bool {
    guard spent <= limit else { return false }
    guard let deadline else { return true }
    return ContinuousClock.now < deadline
  }
}

extension StoredEventRow {
  /// The bytes a budget charges for this row.
  package var chargedBytes: Int { op.count + (cause?.count ?? 0) }
}
