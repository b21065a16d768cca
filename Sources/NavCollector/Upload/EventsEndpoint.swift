import HTTPTypes
import Hummingbird
import NavContract
import NavCore
import NavFleet
import NavPersistence

/// `POST /v1/events`: an upload of wire-format events, each line with its own outcome, every
/// stored line durable before the answer.
struct EventsEndpoint {
  let backend: any FleetBackend
  let limits: UploadLimits
  let metrics: CollectorMetrics
  /// How long the whole body may take to arrive.
  let bodyTimeout: Duration
  /// How far ahead of the collector's clock a line may be dated.
  let maxClockAhead: Duration

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
    let claimedKey = try DeviceSignature(request.headers)
    let read: (lines: [ArraySlice<UInt8>], digest: [UInt8])
    let (body, limits, gzip) = (request.body, limits, encoding == "gzip")
    let declaredLength = request.headers[.contentLength].flatMap { Int($0) }
    do {
      read = try await BodyPace.read(within: bodyTimeout) { progress in
        try await UploadBody.read(body, gzip: gzip, limits: limits, declaredLength: declaredLength, progress: progress)
      }
    } catch UploadBody.Failure.tooLarge(let what) {
      throw CollectorError.tooLarge(what)
    } catch UploadBody.Failure.notGzip(let failure) {
      throw CollectorError.unreadableBody(failure)
    } catch UploadBody.Failure.clientWentAway {
      throw CollectorError.clientClosed
    } catch is TimeLimit.Expired {
      metrics.refused("timeout")
      throw CollectorError.requestTimeout(bodyTimeout)
    } catch is BodyPace.TooSlow {
      metrics.refused("slow-body")
      throw CollectorError.tooSlow
    }
    let signer = try claimedKey?.verified(digest: read.digest)
    let started = ContinuousClock.now
    let outcome = try await store(read.lines, app: token.app, signedBy: signer)
    metrics.upload(outcome, app: token.app, commit: ContinuousClock.now - started)
    return JSONResponse.ok(body: Self.answer(outcome).body)
  }

  /// The upload's lines stored: a store that cannot take them now is a 503 (whatever the
  /// reason, the client sends them again later).
  private func store(_ lines: [ArraySlice<UInt8>], app: AppName, signedBy signer: DeviceKey?) async throws
    -> UploadOutcome
  {
    let failure: FleetError
    do {
      let latest = Timestamp.now.millisecondsSince1970 + Int64(maxClockAhead.components.seconds) * 1_000
      return try await backend.ingest(
        lines, app: app, signedBy: signer, datedUpTo: Timestamp(millisecondsSince1970: latest))
    } catch {
      failure = error
    }
    // An app's unusable file keeps its own answer (a longer wait before a retry).
    if case .unusableStore = failure { throw failure }
    guard failure.isStorageFailure else { throw failure }
    throw CollectorError.unavailable("The store cannot take the upload now", cause: failure.description)
  }

  /// The contract's answer: counts, the rejected lines with why, and the sessions' heads (a chain
  /// value only for the signer's own sessions, `headsForIngest`).
  static func answer(_ outcome: UploadOutcome) -> UploadAnswer {
    UploadAnswer(
      accepted: outcome.accepted, duplicates: outcome.duplicates,
      rejected: outcome.rejected.map { RejectedLine(line: $0.line, rejection: $0.rejection) },
      heads: outcome.headsForIngest)
  }
}

/// The device an upload names and its signature, as sent (`UploadSignature`): checked once the
/// body's digest is known. Both headers or neither; one alone, a key that is not one, or a
/// signature that does not verify is a 401 (`bad-signature`: the body changed on the way, or
/// the key is not the one that signed).
struct DeviceSignature {
  let key: DeviceKey
  let signature: String

  init?(_ headers: HTTPFields) throws {
    let key = headers[.deviceKey]
    let signature = headers[.deviceSignature]
    switch (key, signature) {
    case (nil, nil):
      return nil
    case (let key?, let signature?):
      guard let parsed = DeviceKey(text: key) else {
        throw CollectorError.badSignature("\(UploadSignature.keyHeader) is not an Ed25519 public key in base64url")
      }
      self.key = parsed
      self.signature = signature
    default:
      throw CollectorError.badSignature(
        "send \(UploadSignature.keyHeader) and \(UploadSignature.signatureHeader) together, or neither")
    }
  }

  /// The key, once the signature is found to be its own over `digest`.
  func verified(digest: [UInt8]) throws -> DeviceKey {
    guard UploadSignature.verify(signature: signature, key: key, digest: digest) else {
      throw CollectorError.badSignature("the signature is not this key's over this body")
    }
    return key
  }
}
