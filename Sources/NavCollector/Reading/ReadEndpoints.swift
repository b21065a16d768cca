import Foundation
import Hummingbird
import NavCore
import NavPersistence
import NavReport

/// The contract's read endpoints: a page of sessions, a session's head, history, state and
/// report, each for the token's app only (another app's session answers as one that does not
/// exist).
struct ReadEndpoints {
  let stores: AppStores
  /// How long the client may take to read each chunk of a streamed history.
  let writeTimeout: Duration

  /// A page of the longest listing a request may ask for.
  static let maximumPage = 1_000
  /// Events read from the store at a time while a history streams.
  static let historyChunk = 500

  func sessions(_ request: Request, context: CollectorContext) async throws -> Response {
    let token = try context.requireToken(.read)
    let store = try await stores.store(for: token.app)
    let limit = try Query.integer(request, "limit", in: 1...Self.maximumPage) ?? 100
    let since = try Query.time(request, "since")
    var query = SessionQuery()
    query.order = .lastActivity
    if let cursor = request.uri.queryParameters.get("after") {
      guard let after = SessionCursor(cursor) else {
        throw CollectorError.badQuery("after: not a cursor this collector gave; start again without it")
      }
      query.after = (after.lastAt, after.id)
    }
    let chosen = query
    let page: (lines: [String], last: SessionSummary?, more: Bool) = try await store.offloadedRead {
      store throws(StoreError) in
      var lines: [String] = []
      var last: SessionSummary?
      var more = false
      try store.forEachSession(matching: chosen) { summary in
        // Newest activity first: past `since`, no later session can match.
        if let since, let lastAt = summary.lastAt, lastAt < since { return false }
        guard lines.count < limit else {
          more = true
          return false
        }
        lines.append(SessionQuery.exportLine(summary).trimmingCharacters(in: .newlines))
        last = summary
        return true
      }
      return (lines, last, more)
    }
    let next =
      page.more
      ? page.last.flatMap { summary in summary.lastAt.map { SessionCursor(lastAt: $0, id: summary.id).text } } : nil
    let nextJSON = next.map { JSONValue.string($0).canonicalString } ?? "null"
    let body = "{\"sessions\":[" + page.lines.joined(separator: ",") + "],\"next\":" + nextJSON + "}\n"
    return Response(
      status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: body))
    )
  }

  func head(_ request: Request, context: CollectorContext) async throws -> Response {
    let token = try context.requireToken(.ingest, .read)
    let (store, id) = try await session(context, app: token.app)
    let summary = try await Self.known { () async throws(StoreError) in try await store.summary(of: id) }
    let last = try await store.history(of: id, from: summary.eventCount, to: summary.eventCount).last
    return JSONResponse.ok([
      "session": .string(id.rawValue), "seq": .number(Double(summary.eventCount)),
      "hash": last?.hash.map(JSONValue.string) ?? .null,
    ])
  }

  func history(_ request: Request, context: CollectorContext) async throws -> Response {
    let token = try context.requireToken(.read)
    let (store, id) = try await session(context, app: token.app)
    let summary = try await Self.known { () async throws(StoreError) in try await store.summary(of: id) }
    let from = try Query.integer(request, "from", in: 1...Int.max) ?? 1
    let to = min(try Query.integer(request, "to", in: 1...Int.max) ?? summary.eventCount, summary.eventCount)
    guard from <= summary.eventCount else {
      throw CollectorError.badQuery("from: the session has events up to seq \(summary.eventCount)")
    }
    // Streamed a chunk of events at a time: a long session costs a chunk of memory.
    let limit = writeTimeout
    let body = ResponseBody { writer in
      let writer = DeadlineWriter(writer, limit: limit)
      var start = from
      while start <= to {
        let end = min(to, start + Self.historyChunk - 1)
        var text = ""
        for event in try await store.history(of: id, from: start, to: end) {
          text += try WireFormat.canonicalString(event) + "\n"
        }
        try await writer.write(ByteBuffer(string: text))
        start = end + 1
      }
      try await writer.finish()
    }
    return Response(status: .ok, headers: [.contentType: "application/x-ndjson"], body: body)
  }

  func state(_ request: Request, context: CollectorContext) async throws -> Response {
    let token = try context.requireToken(.read)
    let (store, id) = try await session(context, app: token.app)
    let at = try Query.integer(request, "at", in: 1...Int.max)
    let state = try await Self.known { () async throws(StoreError) in try await store.state(of: id, at: at) }
    return Response(
      status: .ok, headers: [.contentType: "application/json"],
      body: ResponseBody(byteBuffer: ByteBuffer(string: try WireFormat.canonicalString(state.state) + "\n")))
  }

  func report(_ request: Request, context: CollectorContext) async throws -> Response {
    let token = try context.requireToken(.read)
    let (store, id) = try await session(context, app: token.app)
    let html = try await Self.known { () async throws(StoreError) in
      try await store.offloadedRead { store throws(StoreError) in
        ReportPage.html(try SessionReport.load(id, from: store))
      }
    }
    return Response(
      status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
      body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
  }

  /// The token's app's store and the session the path names (404 for an id that cannot be one).
  private func session(_ context: CollectorContext, app: AppName) async throws -> (SessionStore, SessionID) {
    guard let text = context.parameters.get("id"), let id = try? SessionID(text) else {
      throw CollectorError.notFound
    }
    return (try await stores.store(for: app), id)
  }

  /// Runs a read whose unknown session (or seq past the end) is the contract's 404.
  private static func known<T>(_ body: () async throws(StoreError) -> T) async throws -> T {
    do {
      return try await body()
    } catch .unknownSession {
      throw CollectorError.notFound
    } catch .seqBeyondHistory(_, let seq, let last) {
      throw CollectorError.badQuery("at: the session has events up to seq \(last), not \(seq)")
    }
  }
}

/// Where a page of sessions ends, as an opaque text: the last session's time and id.
struct SessionCursor {
  var lastAt: Timestamp
  var id: SessionID

  init(lastAt: Timestamp, id: SessionID) {
    self.lastAt = lastAt
    self.id = id
  }

  /// The cursor `text` is, if it is one.
  init?(_ text: String) {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while base64.count % 4 != 0 { base64 += "=" }
    guard let data = Data(base64Encoded: base64), let value = try? WireFormat.decode(JSONValue.self, from: Array(data)),
      case .number(let at)? = value.objectValue?["at"], let millis = Int64(exactly: at),
      case .string(let idText)? = value.objectValue?["id"], let id = try? SessionID(idText)
    else { return nil }
    self.init(lastAt: Timestamp(millisecondsSince1970: millis), id: id)
  }

  /// The text: base64url of `{"at": MILLISECONDS, "id": SESSION}`.
  var text: String {
    let json: JSONValue = ["at": .number(Double(lastAt.millisecondsSince1970)), "id": .string(id.rawValue)]
    return Data(json.canonicalString.utf8).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }
}

/// A request's query parameters, checked: a bad one is a 400 that names it.
enum Query {
  static func integer(_ request: Request, _ name: String, in range: ClosedRange<Int>) throws -> Int? {
    guard let text = request.uri.queryParameters.get(name) else { return nil }
    guard let value = Int(text), range.contains(value) else {
      throw CollectorError.badQuery("\(name): expected a whole number from \(range.lowerBound), not '\(text)'")
    }
    return value
  }

  static func time(_ request: Request, _ name: String) throws -> Timestamp? {
    guard let text = request.uri.queryParameters.get(name) else { return nil }
    guard let time = try? Timestamp(rfc3339: text) else {
      throw CollectorError.badQuery("\(name): expected a time like 2026-11-21T10:00:00.000Z, not '\(text)'")
    }
    return time
  }
}
