import Hummingbird
import NIOCore
import NavCore
import NavPersistence

/// `GET /v1/export/{table}`: a table of the token's app, as `navstore export` writes it,
/// streamed as it is made, in bounded memory whatever the number of sessions.
struct ExportEndpoint {
  let stores: AppStores
  /// How long the client may take to read each chunk.
  let writeTimeout: Duration

  func handle(_ request: Request, context: CollectorContext) async throws -> Response {
    let token = try context.requireToken(.read)
    guard let name = context.parameters.get("table"), let table = ExportTable(rawValue: name) else {
      throw CollectorError.notFound
    }
    guard let formatName = request.uri.queryParameters.get("format") else {
      throw CollectorError.badQuery("format: give csv or jsonl")
    }
    guard let format = ExportFormat(rawValue: String(formatName)) else {
      throw CollectorError.badQuery("format: expected csv or jsonl, not '\(formatName)'")
    }
    var filter = ExportFilter(since: try Query.time(request, "since"))
    if let session = request.uri.queryParameters.get("session") {
      guard let id = try? SessionID(String(session)) else { throw CollectorError.notFound }
      filter.session = id
    }
    let store = try await stores.store(for: token.app)
    if let session = filter.session {
      do {
        _ = try await store.summary(of: session)
      } catch StoreError.unknownSession {
        throw CollectorError.notFound
      }
    }
    let handoff = ChunkHandoff()
    let chosen = filter
    Task.detached {
      do {
        _ = try await store.offloadedRead { store throws(StoreError) in
          try store.exportEncoded(table, format: format, filter: chosen) { chunk in try handoff.put(chunk) }
        }
        handoff.finish(nil)
      } catch {
        handoff.finish(error)
      }
    }
    let limit = writeTimeout
    let body = ResponseBody { writer in
      let writer = DeadlineWriter(writer, limit: limit)
      defer { handoff.stop() }
      while let chunk = try await handoff.next() {
        try await writer.write(ByteBuffer(bytes: chunk))
      }
      try await writer.finish()
    }
    let type = format == .csv ? "text/csv; charset=utf-8" : "application/x-ndjson"
    return Response(status: .ok, headers: [.contentType: type], body: body)
  }
}
