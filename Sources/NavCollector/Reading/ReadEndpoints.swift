import Foundation
import Hummingbird
import NavArchive
import NavCore
import NavFleet
import NavPersistence
import NavReport

/// The contract's read endpoints: a page of sessions, a session's head, history, state and
/// report, each for the token's app only (another app's session answers as one that does not
/// exist).
struct ReadEndpoints {
  let backend: any FleetBackend
  /// How long the client may take to read each chunk of a streamed history.
  let writeTimeout: Duration
  /// The turns a streamed history takes to read each chunk.
  let turns: StreamTurns

  /// Events read from the store at a time while a history streams.
  static let historyChunk = 500

  func head(_ request: Request, context: CollectorContext) async throws -> Response {
    let token = try context.requireToken(.ingest, .read)
    _ = try QueryParameters(request, allowed: [])
    let id = try context.sessionInPath()
    // An unknown session is a 404. Its chain value only to a reader: see `headsForIngest`.
    let head = try await backend.head(of: id, app: token.app)
    let hash = token.role == .read ? head.hash : nil
    return JSONResponse.ok([
      "session": .string(id.rawValue), "seq": .number(Double(head.seq)), "hash": hash.map(JSONValue.string) ?? .null,
    ])
  }

  func history(_ request: Request, context: CollectorContext) async throws -> Response {
    let token = try context.requireToken(.read)
    let query = try QueryParameters(request, allowed: ["from", "to"])
    let id = try context.sessionInPath()
    let app = token.app
    let backend = backend
    // An unknown session is a 404, a seq past its end a 400 (`CollectorError.answering`).
    let summary = try await backend.summary(of: id, app: app)
    let from = try query.integer("from", in: 1...Int.max) ?? 1
    let to = min(try query.integer("to", in: 1...Int.max) ?? summary.eventCount, summary.eventCount)
    guard from <= summary.eventCount else {
      throw CollectorError.badQuery("from: the session has events up to seq \(summary.eventCount)")
    }
    let body = Self.linesBody(
      of: [(id, from, to)], app: app, backend: backend, writeTimeout: writeTimeout, turns: turns)
    return Response(status: .ok, headers: [.contentType: "application/x-ndjson"], body: body)
  }

  /// The session with the sessions it was restored from, oldest first, as a regression test's
  /// fixture (`navstore fixture`): `keep_personal` keeps the lines whole, as `navstore bundle`
  /// writes them.
  func bundle(_ request: Request, context: CollectorContext) async throws -> Response {
    let token = try context.requireToken(.read)
    let query = try QueryParameters(request, allowed: ["keep_personal"])
    let id = try context.sessionInPath()
    let keep = try query.boolean("keep_personal") ?? false
    var headers: HTTPFields = [.contentType: "application/x-ndjson"]
    headers[.contentDisposition] = ConsoleEndpoints.attachment(Self.jsonLinesFileName(id))
    return Response(
      status: .ok, headers: headers,
      body: try await Self.bundleBody(
        of: id, app: token.app, keepingPersonal: keep, backend: backend, writeTimeout: writeTimeout, turns: turns))
  }

  /// The most sessions a bundle walks back: a longer line (each launch restoring the one
  /// before) ends with the newest this many, so that one request's reads stay bounded.
  static let bundleSessions = 1_000

  /// `ID.jsonl`, the session's id made safe for file systems as its report's name is: the name
  /// of a JSON Lines download (a history, a bundle).
  static func jsonLinesFileName(_ id: SessionID) -> String {
    ReportFileName.of(id).replacingOccurrences(of: ".html", with: ".jsonl")
  }

  /// The body of a bundle: the line's sessions' events, each as a fixture keeps it.
  static func bundleBody(
    of id: SessionID, app: AppName, keepingPersonal keep: Bool, backend: any FleetBackend, writeTimeout: Duration,
    turns: StreamTurns
  ) async throws -> ResponseBody {
    // An unknown session is a 404, before anything is sent.
    let line = try await backend.lineage(of: id, app: app, limit: bundleSessions)
    return linesBody(
      of: line.map { ($0.id, 1, $0.eventCount) }, app: app, backend: backend, writeTimeout: writeTimeout, turns: turns,
      rewriting: { FixtureLine.event($0, keepingPersonal: keep) })
  }

  /// Sessions' events (each `from` through `to`) as JSON Lines, as `navstore history --json`
  /// writes them (each through `rewriting`), read a chunk at a time as the client takes them
  /// (a long session costs a chunk of memory), each chunk read in a turn of `turns` and written
  /// within `writeTimeout`. The API's history and bundle and the console's downloads send it.
  static func linesBody(
    of sessions: [(id: SessionID, from: Int, to: Int)], app: AppName, backend: any FleetBackend,
    writeTimeout: Duration, turns: StreamTurns, rewriting: @escaping @Sendable (AnyEvent) -> AnyEvent = { $0 }
  ) -> ResponseBody {
    ResponseBody { writer in
      let writer = DeadlineWriter(writer, limit: writeTimeout)
      let turn = StreamTurn(turns)
      for (id, from, to) in sessions {
        var start = from
        while start <= to {
          let end = min(to, start + historyChunk - 1)
          var text = ""
          try await turn.take()
          for event in try await backend.history(of: id, app: app, from: start, to: end) {
            text += try WireFormat.canonicalString(rewriting(event)) + "\n"
          }
          turn.release()
          try await writer.write(ByteBuffer(string: text))
          start = end + 1
        }
      }
      try await writer.finish()
    }
  }

  func state(_ request: Request, context: CollectorContext) async throws -> Response {
    let token = try context.requireToken(.read)
    let query = try QueryParameters(request, allowed: ["at"])
    let id = try context.sessionInPath()
    let at = try query.integer("at", in: 1...Int.max)
    let state = try await backend.state(of: id, app: token.app, at: at)
    return Response(
      status: .ok, headers: [.contentType: "application/json"],
      body: ResponseBody(byteBuffer: ByteBuffer(string: try WireFormat.canonicalString(state.state) + "\n")))
  }

  /// The session's report, as `navstore report` writes it: `at` the seq it opens on,
  /// `omit_payloads` to leave screens' payloads, causes, the user id and the app's keys out.
  func report(_ request: Request, context: CollectorContext) async throws -> Response {
    let token = try context.requireToken(.read)
    let query = try QueryParameters(request, allowed: ["at", "omit_payloads"])
    let id = try context.sessionInPath()
    let at = try query.integer("at", in: 1...Int.max)
    let omitting = try query.boolean("omit_payloads") ?? false
    let html = ReportPage.html(try await backend.report(of: id, app: token.app, focus: at, omitsPayloads: omitting))
    // The console's headers: a page of what devices sent, run under the report's own policy.
    var headers = ConsoleEndpoints.securityHeaders(policy: ReportPage.contentSecurityPolicy)
    headers[.contentType] = "text/html; charset=utf-8"
    return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
  }
}
