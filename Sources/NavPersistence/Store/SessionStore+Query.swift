import NavCore
@_spi(Internals) import NavHistory

extension SessionStore {
  /// The sessions that pass `query`'s row filters, in its order, one at a time, until `body`
  /// returns `false`: one read transaction, in constant memory.
  package func forEachSession(
    matching query: SessionQuery, while body: (SessionSummary) throws -> Bool
  ) throws(StoreError) {
    try withReadTransaction { engine throws(StoreError) in
      try engine.forEachSessionSummary(order: query.order, after: query.after) { summary throws(StoreError) in
        guard query.matches(summary) else { return true }
        return try StoreEngine.callingBack { try body(summary) }
      }
    }
  }

  /// Whether `session` ever showed a screen named `name` on top (as the exports name screens).
  package func showedScreen(named name: String, in session: SessionID) throws(StoreError) -> Bool {
    try showedScreen(named: name, in: session, within: WorkBudget(units: .max)).answer ?? false
  }

  /// `showedScreen` within `budget` (`ScreenSearch`): `nil` when it is spent before telling,
  /// and the budget as it is left.
  package func showedScreen(named name: String, in session: SessionID, within budget: WorkBudget)
    throws(StoreError) -> (answer: Bool?, budget: WorkBudget)
  {
    try withReadTransaction { engine throws(StoreError) in
      var search = ScreenSearch(of: session, for: name, within: budget)
      try engine.scanEvents(of: session, from: 1, to: .max) { row throws(StoreError) in
        try StoreError.ruling(search.take(row))
      }
      return (search.answer, search.budget)
    }
  }

  /// `verify` of one session within `budget`: `nil` when it is spent before the verdict, and the
  /// budget as it is left.
  package func verify(_ session: SessionID, within budget: WorkBudget) throws(StoreError) -> (
    result: VerificationResult?, budget: WorkBudget
  ) {
    try withReadTransaction { engine throws(StoreError) in try engine.verify(session, within: budget) }
  }
}
