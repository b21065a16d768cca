import Foundation
import NavCore
@_spi(Internals) import NavPersistence
import NavTools

/// What a page of an app's sessions asks for: the row filters and order, a screen the session
/// showed, whether it fails verification, how many at most, and whether payloads are left out.
package struct SessionsPageRequest: Sendable {
  package var filters: SessionQuery
  package var screen: String?
  package var failing: Bool?
  package var limit: Int
  package var omittingPayloads: Bool
  /// The work the screen and verification filters may do (`WorkBudget`'s units; a caller with a
  /// budget of its own gives less).
  package var workLimit = SessionsPage.workLimit

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
/// A page's work is bounded, whatever the filters, the app's size and its sessions' lengths: at
/// most `examinedLimit` sessions' rows are read, and the filters a row cannot tell (a screen
/// shown, verification) replay sessions within one `WorkBudget` of `workLimit` units (or the
/// request's own), charged event by event. When either runs out before the page is full, the
/// page is answered as it is, and `resumeAfter` says where to go on: the session whose replay the
/// budget cut short is the next page's first. A session that a whole page's budget cannot tell
/// about is passed over and named in `unchecked`, so a listing always goes on.
package struct SessionsPage: Sendable {
  package var lines: [String] = []
  package var resumeAfter: SessionSummary?
  /// Sessions the row filters kept but the screen or verification filter could not tell about
  /// within a whole page's budget: neither listed nor left out, to be looked at one by one.
  package var unchecked: [SessionID] = []

  /// Sessions' rows read for one page, at most.
  package static let examinedLimit = 10_000
  /// The work one page's screen and verification filters may do: 32 MiB of stored events, each
  /// charged its bytes and `WorkBudget.unitsPerEvent`.
  package static let workLimit = 32 * 1024 * 1024

  package init() {}

  /// Sessions' rows asked of the store at a time.
  static let fetchSize = 500

  /// The page `request` makes of the app's sessions, which `fetch` reads in the request's
  /// order after a cursor, at most a number of them at a time; `showedScreen` and `verifies`
  /// are asked of the sessions that need it, each given what is left of the page's budget and
  /// handing it back with its answer (`nil`: the budget ran out before it could tell). Stops
  /// reading once the page is full or a limit is reached.
  package static func make(
    _ request: SessionsPageRequest,
    fetch: (_ after: (lastAt: Timestamp, id: SessionID)?, _ limit: Int) async throws(FleetError) -> [SessionSummary],
    showedScreen: (SessionID, String, WorkBudget) async throws(FleetError) -> (answer: Bool?, budget: WorkBudget),
    verifies: (SessionID, WorkBudget) async throws(FleetError) -> (answer: Bool?, budget: WorkBudget)
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
    var budget = WorkBudget(units: request.workLimit)
    /// The last session done with: listed, left out, or passed over unchecked.
    var last: SessionSummary?
    let filters = request.filters
    reading: while let summary = try await next() {
      // Newest activity first: past `since`, no later session can match.
      if filters.order == .lastActivity, let since = filters.since, let lastAt = summary.lastAt, lastAt < since {
        break
      }
      guard page.lines.count < request.limit, examined < examinedLimit, !budget.isSpent else {
        page.resumeAfter = last
        break
      }
      examined += 1
      guard filters.matches(summary) else {
        last = summary
        continue
      }
      // A session met with the whole budget left that still cannot be told about never will be.
      let wholeBudget = budget.spent == 0
      // Kept (`true`), left out (`false`), or not told within the budget (`nil`).
      var kept: Bool? = true
      if let screen = request.screen {
        (kept, budget) = try await showedScreen(summary.id, screen, budget)
      }
      if let failing = request.failing, kept == true {
        let verified = try await verifies(summary.id, budget)
        (kept, budget) = (verified.answer.map { $0 != failing }, verified.budget)
      }
      switch kept {
      case true?:
        break
      case false?:
        last = summary
        continue
      case nil where wholeBudget:
        page.unchecked.append(summary.id)
        last = summary
        continue
      case nil:
        page.resumeAfter = last
        break reading
      }
      last = summary
      page.lines.append(
        SessionQuery.exportLine(summary, omittingPayloads: request.omittingPayloads).trimmingCharacters(
          in: .newlines))
    }
    return page
  }
}
