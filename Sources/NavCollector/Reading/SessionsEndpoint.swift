import Foundation
import Hummingbird
import NavCore
import NavPersistence

/// `GET /v1/sessions`: a page of the token's app's sessions, filtered as `navstore sessions`
/// filters them, newest activity first (or by id), with a cursor to the next page.
///
/// A page's work is bounded, however the filters and the app's size: it reads at most
/// `examinedLimit` sessions' rows, and replays at most `replayedEventLimit` events for the
/// filters a row cannot tell (a screen shown, verification). When either runs out before the
/// page is full, the page is answered as it is, shorter than `limit`, and `next` resumes after
/// the last session read: a client follows `next` until it is `null`, as for any page.
struct SessionsEndpoint {
  let stores: AppStores

  /// A page of the longest listing a request may ask for.
  static let maximumPage = 1_000
  /// Sessions' rows read for one page, at most.
  static let examinedLimit = 10_000
  /// Events replayed for one page's screen and verification filters, at most.
  static let replayedEventLimit = 200_000

  /// The order of a listing, as `sort` names it.
  enum Sort: String, CaseIterable {
    case last, id
  }

  static let parameters: Set<String> = [
    "limit", "after", "sort", "since", "until", "app_version", "os_name", "os_version", "device_model", "locale",
    "user_id", "restored", "screen", "failing", "omit_payloads",
  ]

  func handle(_ request: Request, context: CollectorContext) async throws -> Response {
    let token = try context.requireToken(.read)
    let query = try QueryParameters(request, allowed: Self.parameters)
    let limit = try query.integer("limit", in: 1...Self.maximumPage) ?? 100
    let sort = try query.choice("sort", of: Sort.self) ?? .last
    var filters = SessionQuery()
    filters.order = sort == .last ? .lastActivity : .id
    filters.since = try query.time("since")
    filters.until = try query.time("until")
    if let since = filters.since, let until = filters.until, until < since {
      throw CollectorError.badQuery("until (\(until)) is before since (\(since))")
    }
    filters.appVersion = try query.text("app_version")
    filters.osName = try query.text("os_name")
    filters.osVersion = try query.text("os_version")
    filters.deviceModel = try query.text("device_model")
    filters.locale = try query.text("locale")
    filters.userID = try query.text("user_id")
    filters.restored = try query.boolean("restored")
    if let text = try query.text("after") {
      guard let cursor = SessionCursor(text), cursor.sort == sort else {
        throw CollectorError.badQuery("after: not a cursor this collector gave for this sort; start again without it")
      }
      filters.after = (cursor.lastAt ?? Timestamp(millisecondsSince1970: 0), cursor.id)
    }
    let screen = try query.text("screen")
    let failing = try query.boolean("failing")
    let omitting = try query.boolean("omit_payloads") ?? false
    let store = try await stores.store(for: token.app)
    let chosen = filters
    let page = try await store.offloadedRead { store throws(StoreError) in
      try Self.page(of: store, filters: chosen, screen: screen, failing: failing, limit: limit, omitting: omitting)
    }
    let next = page.resumeAfter.map { JSONValue.string(SessionCursor(after: $0, sort: sort).text).canonicalString }
    let body = "{\"sessions\":[" + page.lines.joined(separator: ",") + "],\"next\":" + (next ?? "null") + "}\n"
    return Response(
      status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: body))
    )
  }

  /// A page: its sessions as the sessions export's lines, and the session to resume after when
  /// there may be more.
  struct Page {
    var lines: [String] = []
    var resumeAfter: SessionSummary?
  }

  static func page(
    of store: SessionStore, filters: SessionQuery, screen: String?, failing: Bool?, limit: Int, omitting: Bool
  ) throws(StoreError) -> Page {
    var page = Page()
    var examined = 0
    var replayed = 0
    var last: SessionSummary?
    var stoppedEarly = false
    try store.forEachSession(matching: SessionQuery(order: filters.order, after: filters.after)) { summary in
      // Newest activity first: past `since`, no later session can match.
      if filters.order == .lastActivity, let since = filters.since, let lastAt = summary.lastAt, lastAt < since {
        return false
      }
      guard page.lines.count < limit, examined < examinedLimit, replayed < replayedEventLimit else {
        stoppedEarly = true
        return false
      }
      examined += 1
      last = summary
      guard filters.matches(summary) else { return true }
      if let screen {
        replayed += summary.eventCount
        if try !store.showedScreen(named: screen, in: summary.id) { return true }
      }
      if let failing {
        replayed += summary.eventCount
        if try store.verify([summary.id]).allSatisfy(\.isIntact) == failing { return true }
      }
      page.lines.append(SessionQuery.exportLine(summary, omittingPayloads: omitting).trimmingCharacters(in: .newlines))
      return true
    }
    page.resumeAfter = stoppedEarly ? last : nil
    return page
  }
}

extension SessionQuery {
  /// A query that only orders, and resumes after a page's last session.
  fileprivate init(order: Order, after: (lastAt: Timestamp, id: SessionID)?) {
    self.init()
    self.order = order
    self.after = after
  }
}

/// Where a page of sessions ends, as an opaque text: the order, the last session's time (in
/// the order of latest activity) and id.
struct SessionCursor {
  var sort: SessionsEndpoint.Sort
  var lastAt: Timestamp?
  var id: SessionID

  init(after session: SessionSummary, sort: SessionsEndpoint.Sort) {
    self.sort = sort
    lastAt = session.lastAt
    id = session.id
  }

  /// The cursor `text` is, if it is one. A cursor without `sort` is of the default order.
  init?(_ text: String) {
    guard let bytes = Base64URL.decode(text), let value = try? WireFormat.decode(JSONValue.self, from: bytes),
      let object = value.objectValue, case .string(let idText)? = object["id"], let id = try? SessionID(idText)
    else { return nil }
    self.id = id
    switch object["sort"] {
    case nil: sort = .last
    case .string(let name)?:
      guard let named = SessionsEndpoint.Sort(rawValue: name) else { return nil }
      sort = named
    default: return nil
    }
    switch object["at"] {
    case .number(let at)?:
      guard let millis = Int64(exactly: at) else { return nil }
      lastAt = Timestamp(millisecondsSince1970: millis)
    case nil:
      guard sort == .id else { return nil }
    default: return nil
    }
  }

  /// The text: base64url of `{"at": MILLISECONDS, "id": SESSION}`, with `"sort": "id"` in
  /// that order (which needs no time).
  var text: String {
    var json: [String: JSONValue] = ["id": .string(id.rawValue)]
    if sort == .id {
      json["sort"] = .string(sort.rawValue)
    } else if let lastAt {
      json["at"] = .number(Double(lastAt.millisecondsSince1970))
    }
    return Base64URL.encode(Array(JSONValue.object(json).canonicalString.utf8))
  }
}
