import Hummingbird
import NavCore
import NavPersistence

/// `POST /v1/events`: an upload of wire-format events, each line with its own outcome, every
/// stored line durable before the answer.
struct EventsEndpoint {
  let stores: AppStores
  let limits: UploadLimits
  let metrics: CollectorMetrics
  /// How long the whole body may take to arrive.
  let bodyTimeout: Duration

  func handle(_ request: Request, context: CollectorContext) async throws -> Response {
    let token = try context.requireToken(.ingest)
    let mediaType = request.headers[.contentType]?.split(separator: ";").first.map {
      $0.trimmingCharacters(in: .whitespaces).lowercased()
    }
    guard mediaType == "application/x-ndjson" else { throw CollectorError.unsupportedMediaType }
    let encoding = request.headers[.contentEncoding]?.trimmingCharacters(in: .whitespaces).lowercased()
    guard encoding == nil || encoding == "gzip" || encoding == "identity" else {
      throw CollectorError.unsupportedMediaType
    }
    let lines: [ArraySlice<UInt8>]
    let (body, limits, gzip) = (request.body, limits, encoding == "gzip")
    let declaredLength = request.headers[.contentLength].flatMap { Int($0) }
    do {
      lines = try await Deadline.run(bodyTimeout) {
        try await UploadBody.read(body, gzip: gzip, limits: limits, declaredLength: declaredLength)
      }
    } catch UploadBody.Failure.tooLarge(let what) {
      throw CollectorError.tooLarge(what)
    } catch UploadBody.Failure.notGzip(let failure) {
      throw CollectorError.unreadableBody(failure)
    } catch UploadBody.Failure.clientWentAway {
      throw CollectorError.clientClosed
    } catch is Deadline.Passed {
      metrics.refused("timeout")
      throw CollectorError.requestTimeout(bodyTimeout)
    }
    let store = try await stores.store(for: token.app)
    let outcome: UploadOutcome
    let started = ContinuousClock.now
    do {
      outcome = try await store.ingest(lines)
    } catch {
      throw CollectorError.unavailable("The store cannot take the upload now", cause: error.description)
    }
    // Acknowledged only if the file it went to is still the one at the store's path.
    try await stores.check(token.app)
    metrics.upload(outcome, commit: ContinuousClock.now - started)
    return JSONResponse.ok(Self.answer(outcome))
  }

  /// The contract's answer: counts, the rejected lines with why, and the sessions' heads.
  static func answer(_ outcome: UploadOutcome) -> JSONValue {
    let rejected: [JSONValue] = outcome.rejected.map { line, rejection in
      [
        "line": .number(Double(line)), "session": rejection.session.map { .string($0.rawValue) } ?? .null,
        "seq": rejection.seq.map { .number(Double($0)) } ?? .null, "reason": .string(rejection.reason.rawValue),
        "message": .string(rejection.message),
      ]
    }
    var heads: [String: JSONValue] = [:]
    for (session, head) in outcome.heads {
      heads[session.rawValue] = ["seq": .number(Double(head.seq)), "hash": head.hash.map(JSONValue.string) ?? .null]
    }
    return [
      "accepted": .number(Double(outcome.accepted)), "duplicates": .number(Double(outcome.duplicates)),
      "rejected": .array(rejected), "heads": .object(heads),
    ]
  }
}
