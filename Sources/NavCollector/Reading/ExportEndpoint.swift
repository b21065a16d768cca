import Hummingbird
import NIOCore
import NavCore
import NavFleet
@_spi(Internals) import NavPersistence
@_spi(Internals) import NavTools

/// `GET /v1/export/{table}`: a table of the token's app, as `navstore export` writes it,
/// streamed as it is made, in bounded memory whatever the number of sessions.
struct ExportEndpoint {
  let backend: any FleetBackend
  /// How long the client may take to read each chunk.
  let writeTimeout: Duration
  /// The turns the export takes to make each chunk.
  let turns: StreamTurns

  func handle(_ request: Request, context: CollectorContext) async throws -> Response {
    let token = try context.requireToken(.read)
    guard let name = context.parameters.get("table"), let table = ExportTable(rawValue: name) else {
      throw CollectorError.notFound
    }
    let query = try QueryParameters(
      request,
      allowed: [
        "format", "since", "until", "app_version", "device_model", "session", "omit_payloads", "keep_payload_fields",
        "after",
      ])
    guard let format = try query.choice("format", of: ExportFormat.self) else {
      throw CollectorError.badQuery("format: give csv, jsonl, segment or otlp")
    }
    guard format.writes(table) else {
      throw CollectorError.badQuery(
        "format: \(format.rawValue) sends the screen views as events; ask for /v1/export/screen-views")
    }
    var filter = ExportFilter(
      since: try query.time("since"), until: try query.time("until"), appVersion: try query.text("app_version"),
      deviceModel: try query.text("device_model"), omitsPayloads: try query.boolean("omit_payloads") ?? false,
      after: try query.integer("after", in: 0...Int.max).map(Int64.init))
    if let fields = try query.text("keep_payload_fields") {
      guard filter.omitsPayloads else {
        throw CollectorError.badQuery("keep_payload_fields: keeps fields of what omit_payloads=true leaves out; add it")
      }
      do {
        filter.keptPayloadFields = try PayloadRedaction.paths([fields])
      } catch {
        throw CollectorError.badQuery("keep_payload_fields: \(error)")
      }
    }
    if let since = filter.since, let until = filter.until, until < since {
      throw CollectorError.badQuery("until (\(until)) is before since (\(since))")
    }
    if filter.omitsPayloads, table == .events, format == .jsonl {
      throw CollectorError.badQuery(
        "omit_payloads: the events table's JSON Lines are whole wire-format events, which keep their payloads; ask for format=csv"
      )
    }
    if let text = try query.text("session") {
      guard let id = try? SessionID(text) else { throw CollectorError.notFound }
      filter.session = id
    }
    let app = token.app
    let backend = backend
    // An unknown session is a 404 (`CollectorError.answering`), before any of the answer goes.
    let cursor = try await backend.checkExport(filter, app: app)
    guard let chosen = filter.answering(cursor) else {
      throw CollectorError.badQuery(
        "after: \(filter.after ?? 0) is ahead of this store's cursor (\(cursor)): the store was restored or replaced since; pull everything again, without after"
      )
    }
    let (limit, turns) = (writeTimeout, turns)
    let body = ResponseBody { writer in
      let writer = DeadlineWriter(writer, limit: limit)
      // A turn while each chunk is made, none while it is written.
      let turn = StreamTurn(turns)
      try await turn.take()
      try await backend.export(table, format: format, filter: chosen, app: app) { chunk in
        turn.release()
        try await writer.write(ByteBuffer(bytes: chunk))
        try await turn.take()
      }
      turn.release()
      try await writer.finish()
    }
    let type = format == .csv ? "text/csv; charset=utf-8" : "application/x-ndjson"
    return Response(
      status: .ok, headers: [.contentType: type, .navStoreCursor: String(cursor)], body: body)
  }
}
