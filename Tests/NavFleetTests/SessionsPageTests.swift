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

  func page(replayingAtMost limit: Int?) async throws -> (page: SessionsPage, verified: Int) {
    var query = SessionQuery()
    query.order = .lastActivity
    var request = SessionsPageRequest(filters: query, screen: nil, failing: true, limit: 10, omittingPayloads: true)
    if let limit { request.replayedEventLimit = limit }
    var verified = 0
    let summaries = try Self.summaries()
    let page = try await SessionsPage.make(
      request,
      fetch: { after, limit in
        let start = after.map { after in (summaries.firstIndex { $0.id == after.id } ?? -1) + 1 } ?? 0
        return Array(summaries.dropFirst(start).prefix(limit))
      },
      showedScreen: { _, _ in true },
      verifies: { _ in
        verified += 1
        return true
      })
    return (page, verified)
  }

  @Test func theReplaysStopAtTheRequestsLimit() async throws {
    // Every session verifies, so none is listed and each one read is replayed: 4 events each.
    let bounded = try await page(replayingAtMost: 10)
    #expect(bounded.verified == 3 && bounded.page.lines.isEmpty)
    #expect(bounded.page.resumeAfter?.id == sessionID("s2"))
    let whole = try await page(replayingAtMost: nil)
    #expect(whole.verified == 50 && whole.page.resumeAfter == nil)
  }
}
