import Hummingbird
import NavContract
import NavCore
import NavFleet

/// `POST /v1/heads`: the heads of up to `HeadsRequest.maximumSessions` sessions of the token's
/// app in one request, what a backfill asks before it uploads (`navstore push`), where
/// `GET /v1/sessions/{id}/head` would cost a request, and a share of the rate limit, per
/// session. A session the app does not hold has seq 0, as in an upload's answer.
struct HeadsEndpoint {
  let backend: any FleetBackend
  /// How long the whole body may take to arrive.
  let bodyTimeout: Duration

  /// The largest body: every id at its longest (128 characters, each escaped as 6), quoted,
  /// with a comma, and room for the object around them.
  static let maximumBodyBytes = HeadsRequest.maximumSessions * (128 * 6 + 3) + 1024

  func handle(_ request: Request, context: CollectorContext) async throws -> Response {
    let token = try context.requireToken(.ingest, .read)
    _ = try QueryParameters(request, allowed: [])
    let mediaType = request.headers[.contentType]?.split(separator: ";").first.map {
      $0.trimmingCharacters(in: .whitespaces).lowercased()
    }
    guard mediaType == "application/json" else {
      throw CollectorError.unsupportedMediaType(expected: "application/json")
    }
    let bytes = try await BodyPace.collect(
      request, upTo: Self.maximumBodyBytes, within: bodyTimeout, what: "A heads request's body")
    let asked: HeadsRequest
    do {
      asked = try ContractJSON.decode(HeadsRequest.self, from: bytes.readableBytesView)
    } catch {
      throw CollectorError.badBody(#"send {"sessions": [ID, ...]}, each a session id"#)
    }
    guard asked.sessions.count <= HeadsRequest.maximumSessions else {
      throw CollectorError.tooLarge(
        "The request names \(asked.sessions.count) sessions, over the \(HeadsRequest.maximumSessions) one may")
    }
    let ambiguous = HeadsRequest.ambiguous(asked.sessions)
    guard ambiguous.isEmpty else {
      throw CollectorError.badBody(
        "\(ambiguous.count) of the ids differ from another only in Unicode normalization, and an answer's keys "
          + "cannot tell them apart; ask for those one at a time (GET /v1/sessions/{id}/head)")
    }
    let heads = try await backend.heads(of: Array(Set(asked.sessions)), app: token.app)
    // Chain values only to a reader (see `UploadOutcome.headsForIngest`).
    let shown = token.role == .read ? heads : heads.mapValues { SessionHead(seq: $0.seq, hash: nil) }
    return try JSONResponse.ok(contract: HeadsAnswer(heads: shown))
  }
}
