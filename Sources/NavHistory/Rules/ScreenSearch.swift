@_spi(Internals) import NavCore

/// Whether a session ever showed a screen of a name on top (as the exports name screens), found
/// by replaying its history within a budget: the rule behind the listings' `screen` filter, the
/// same for every storage engine. The engine hands it the session's events in seq order until
/// it wants no more.
package struct ScreenSearch: Sendable {
  private var replay: Rehydration
  private let name: String
  /// What it may still spend.
  package private(set) var budget: WorkBudget
  /// Whether the screen was found.
  package private(set) var found = false
  /// Whether the budget ran out before the search was done.
  package private(set) var ranOut = false

  /// A search of `session` for `name`, spending at most `budget`.
  package init(of session: SessionID, for name: String, within budget: WorkBudget) {
    replay = Rehydration(of: session, from: nil)
    self.name = name
    self.budget = budget
  }

  /// Whether the search wants more events: not found yet, and budget left.
  package var wantsMore: Bool { !found && !ranOut }

  /// Takes the session's next stored event; returns `wantsMore`.
  @discardableResult
  package mutating func take(_ row: StoredEventRow) throws(HistoryError) -> Bool {
    guard wantsMore else { return false }
    guard budget.chargeEvent(bytes: row.chargedBytes) else {
      ranOut = true
      return false
    }
    try replay.take(row)
    // The top route only: a walk of the visible path, not a path of every name on it.
    if let top = replay.state?.visibleRoute, ScreenName.of(top.screen) == name { found = true }
    return wantsMore
  }

  /// Whether the session showed the screen, once its events were taken; `nil` when the budget
  /// ran out before telling.
  package var answer: Bool? { found ? true : ranOut ? nil : false }
}
