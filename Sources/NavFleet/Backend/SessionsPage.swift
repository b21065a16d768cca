import Foundation
import NavCore
@_spi(Internals) import NavPersistence

/// What a page of an app's sessions asks for: the row filters and order, a screen the session
/// showed, whether it fails verification, how many at most, and whether payloads are left out.
package struct SessionsPageRequest: Sendable {
  package var filters: SessionQuery
  package var screen: String?
  package var failing: Bool?
  package var limit: Int
  package var omittingPayloads: Bool
  /// Events replayed at most for the screen and verification filters (a caller with a budget
  /// of its own gives less).
  package var replayedEventLimit = SessionsPage.replayedEventLimit

  package init(filters: SessionQuery, screen: String?, failing: Bool?, limit: Int, omittingPayloads: Bool) {
    self.filters = filters
    self.screen = screen
    self.failing = failing
    self.limit = limit
    self.omittingPayloads = omittingPayloads
  }
}

/// A page of sessions: each as the sessions export's line, and the session to resume after when
/// there may be more.
///
/// A page's work is bounded, whatever the filters and the app's size: at most `examinedLimit`
/// sessions' rows are read, and at most `replayedEventLimit` events (or the request's own limit)
/// replayed for the filters a row cannot tell (a screen shown, verification). When either runs
/// out before the page is full, the page is answered as it is, and `resumeAfter` says where to
/// go on.
package struct SessionsPage: Sendable {
  package var lines: [String] = []
  package var resumeAfter: SessionSummary?

  /// Sessions' rows read for one page, at most.
  package static let examinedLimit = 10_000
  /// Events replayed for one page's screen and verification filters, at most.
  package static let replayedEventLimit = 200_000

  package init() {}

  /// Sessions' rows asked of the store at a time.
  static let fetchSize = 500

  /// The page `request` makes of the app's sessions, which `fetch` reads in the request's
  /// order after a cursor, at most a number of them at a time; `showedScreen` and `verifies`
  /// are asked of the sessions that need it. Stops reading once the page is full or a limit is
  /// reached.
  package static func make(
    _ request: SessionsPageRequest,
    fetch: (_ after: (lastAt: Timestamp, id: SessionID)?, _ limit: Int) async throws(FleetError) -> [SessionSummary],
    showedScreen: (SessionID, String) async throws(FleetError) -> Bool,
    verifies: (SessionID) async throws(FleetError) -> Bool
  ) async throws(FleetError) -> SessionsPage {
    var buffered: [SessionSummary] = []
    var cursor = request.filters.after
    var exhausted = false
    func next() async throws(FleetError) -> SessionSummary? {
      if buffered.isEmpty, !exhausted {
        let rows = try await fetch(cursor, fetchSize)
        exhausted = rows.count < fetchSize
        if let last = rows.last { cursor = (last.lastAt ?? Timestamp(millisecondsSince1970: 0), last.id) }
        buffered = rows.reversed()
      }
      return buffered.popLast()
    }
    var page = SessionsPage()
    var examined = 0
    var replayed = 0
    var last: SessionSummary?
    let filters = request.filters
    while let summary = try await next() {
      // Newest activity first: past `since`, no later session can match.
      if filters.order == .lastActivity, let since = filters.since, let lastAt = summary.lastAt, lastAt < since {
        break
      }
      guard page.lines.count < request.limit, examined < examinedLimit, replayed < request.replayedEventLimit else {
        page.resumeAfter = last
        break
      }
      examined += 1
      last = summary
      guard filters.matches(summary) else { continue }
      if let screen = request.screen {
        replayed += summary.eventCount
        if try await !showedScreen(summary.id, screen) { continue }
      }
      if let failing = request.failing {
        replayed += summary.eventCount
        if try await verifies(summary.id) == failing { continue }
      }
      page.lines.append(
        SessionQuery.exportLine(summary, omittingPayloads: request.omittingPayloads).trimmingCharacters(
          in: .newlines))
    }
    return page
  }
}
