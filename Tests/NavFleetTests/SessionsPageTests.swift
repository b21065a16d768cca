@_spi(Internals) import NavCore
import NavPersistence
import NavTestSupport
import Testing

@testable import NavFleet

/// A page of sessions does bounded work: the replays its filters need stop at the request's own
/// limit, and the page then says where to go on.
@Suite struct SessionsPageTests {
  /// Sessions of 4 events each, the latest first.
  static func summaries() throws -> [SessionSummary] {
    let store = try SessionStore(path: ":memory:")
    let home = AnyCoordinator.stack([AnyRoute(style: .root(withNavigation: true), screen: .string("home"))])
    for index in 0..<50 {
      let offset = Int64(50 - index) * 10_000
      try store.append(event("s\(index)", .start(home), offset: offset))
      try store.append(event("s\(index)", .push(.string("a")), offset: offset + 1))
      try store.append(event("s\(index)", .pop(), offset: offset + 2))
      try store.append(event("s\(index)", .push(.string("b")), offset: offset + 3))
    }
    return try store.sessions().sorted {
      ($0.lastAt?.millisecondsSince1970 ?? 0) > ($1.lastAt?.millisecondsSince1970 ?? 0)
    }
  }

  /// A page verifying sessions that each cost `cost(id)` events, within a budget of `events`
  /// events (each charged `WorkBudget.unitsPerEvent`): the page, and the sessions whose
  /// verification finished.
  func page(
    withBudgetOf events: Int?, after: SessionSummary? = nil, cost: (SessionID) -> Int = { _ in 4 }
  ) async throws -> (page: SessionsPage, verified: [SessionID]) {
    var query = SessionQuery()
    query.order = .lastActivity
    if let after { query.after = (after.lastAt ?? Timestamp(millisecondsSince1970: 0), after.id) }
    var request = SessionsPageRequest(filters: query, screen: nil, failing: true, limit: 10, omittingPayloads: true)
    if let events { request.workLimit = events * WorkBudget.unitsPerEvent }
    var verified: [SessionID] = []
    let summaries = try Self.summaries()
    let page = try await SessionsPage.make(
      request,
      fetch: { after, limit in
        let start = after.map { after in (summaries.firstIndex { $0.id == after.id } ?? -1) + 1 } ?? 0
        return Array(summaries.dropFirst(start).prefix(limit))
      },
      showedScreen: { _, _, budget in (true, budget) },
      verifies: { id, budget in
        // As an audit does: each event charged as it is read, stopping when the budget is spent.
        var spending = budget
        for _ in 0..<cost(id) where !spending.chargeEvent(bytes: 0) { return (nil, spending) }
        verified.append(id)
        return (true, spending)
      })
    return (page, verified)
  }

  @Test func theReplaysStopWithinTheBudgetAndTheCutSessionComesNext() async throws {
    // Every session verifies, so none is listed and each one read is replayed: 4 events each.
    // A budget of 10 events finishes two and is spent inside the third, which the next page
    // begins with.
    let bounded = try await page(withBudgetOf: 10)
    #expect(bounded.verified == [sessionID("s0"), sessionID("s1")] && bounded.page.lines.isEmpty)
    #expect(bounded.page.resumeAfter?.id == sessionID("s1"))
    #expect(bounded.page.unchecked.isEmpty)
    let next = try await page(withBudgetOf: 10, after: bounded.page.resumeAfter)
    #expect(next.verified.first == sessionID("s2"))
    let whole = try await page(withBudgetOf: nil)
    #expect(whole.verified.count == 50 && whole.page.resumeAfter == nil)
  }

  @Test func aSessionNoPageCanVerifyIsPassedOverAsUncheckedAndTheListingGoesOn() async throws {
    // s1 costs more than a whole page's budget: met first on a page, it is named unchecked and
    // the page goes on past it; met later on a page, the page ends before it.
    let cost: (SessionID) -> Int = { $0 == sessionID("s1") ? 1_000 : 4 }
    let first = try await page(withBudgetOf: 100, cost: cost)
    #expect(first.verified == [sessionID("s0")])
    #expect(first.page.resumeAfter?.id == sessionID("s0") && first.page.unchecked.isEmpty)
    let second = try await page(withBudgetOf: 100, after: first.page.resumeAfter, cost: cost)
    #expect(second.page.unchecked == [sessionID("s1")] && second.verified.isEmpty)
    #expect(second.page.resumeAfter?.id == sessionID("s1"))
    let third = try await page(withBudgetOf: 100, after: second.page.resumeAfter, cost: cost)
    #expect(third.verified.first == sessionID("s2") && third.page.unchecked.isEmpty)
  }
}
