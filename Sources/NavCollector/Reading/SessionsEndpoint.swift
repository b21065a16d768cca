import Foundation
import Hummingbird
import NavCore
import NavFleet
import NavPersistence

/// `GET /v1/sessions`: a page of the token's app's sessions, filtered as `navstore sessions`
/// filters them, newest activity first (or by id), with a cursor to the next page.
///
/// A page's work is bounded, however the filters, the app's size and its sessions' lengths
/// (`SessionsPage`): when a limit runs out before the page is full, the page is answered as it
/// is, shorter than `limit`, and `next` resumes after the last session done with: a client
/// follows `next` until it is `null`, as for any page. A session too long for a whole page's
/// budget to tell about is named in `unchecked`, and the listing goes on past it.
struct SessionsEndpoint {
  let backend: any FleetBackend

  /// A page of the longest listing a request may ask for.
  static let maximumPage = 1_000
  /// The order of a listing, as `sort` names it.
  enum Sort: String, CaseIterable {
    case last, id
  }

  static let parameters: Set<String> = [
    "limit", "after", "sort", "since", "until", "app_version", "os_name", "os_version", "device_model", "locale",
    "user_id", "restored", "launch", "dropped_routes", "screen", "failing", "omit_payloads",
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
    filters.launch = try query.choice("launch", of: LaunchRecord.Outcome.self)
    filters.droppedRoutes = try query.boolean("dropped_routes")
    if let text = try query.text("after") {
      guard let cursor = SessionCursor(text), cursor.sort == sort else {
        throw CollectorError.badQuery("after: not a cursor this collector gave for this sort; start again without it")
      }
      filters.after = (cursor.lastAt ?? Timestamp(millisecondsSince1970: 0), cursor.id)
    }
    // Newest activity first begins at the collector's clock, not at whatever a device dated.
    filters.readUpTo(.now)
    let screen = try query.text("screen")
    let failing = try query.boolean("failing")
    let omitting = try query.boolean("omit_payloads") ?? false
    let page = try await backend.sessions(
      app: token.app,
      SessionsPageRequest(filters: filters, screen: screen, failing: failing, limit: limit, omittingPayloads: omitting))
    let next = page.resumeAfter.map { JSONValue.string(SessionCursor(after: $0, sort: sort).text).canonicalString }
    // Named only when a session was passed over: a page whose filters could tell about every
    // session it read reads as it always did.
    let unchecked =
      page.unchecked.isEmpty
      ? "" : ",\"unchecked\":" + JSONValue.array(page.unchecked.map { .string($0.rawValue) }).canonicalString
    let body =
      "{\"sessions\":[" + page.lines.joined(separator: ",") + "],\"next\":" + (next ?? "null") + unchecked + "}\n"
    return Response(
      status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: body))
    )
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
