import Foundation
import NavContract
import NavCore
import NavPersistence

/// Something an upload ran into, reported on `NavigationUploader.problems`. None of them drops
/// an event: what was not acknowledged stays in the store and is sent later. Each case is a
/// value an app can act on, and its `description` is one sentence for a log or a debug screen.
public enum UploadProblem: Sendable, Hashable, CustomStringConvertible {
  /// The collector rejected a line (or one event is over its size limits: `too-large`): the
  /// session waits at `seq` (see `NavigationUploader.holds()`) while the other sessions go on.
  /// `reason` is the contract's code (`hash`, `too-large`, `wrong-device`, ...), `message` the
  /// collector's sentence.
  case rejected(session: SessionID, seq: Int, reason: RejectionReason, message: String)
  /// The token was refused (401) or may not upload (403): uploading stops until `start()` is
  /// called again, with everything kept.
  case tokenRefused(status: Int)
  /// The collector could not be reached; the uploader tries again later.
  case unreachable(Connection)
  /// The collector, or a proxy in front of it, asked the uploader to wait (408, 429, 502, 503,
  /// 504) and went on asking through the retries; tried again later.
  case busy(status: Int)
  /// The collector answered with a status or a body the contract does not expect; tried again
  /// later.
  case unexpectedAnswer(status: Int)
  /// The collector answered, but acknowledged none of the batch; tried again later.
  case nothingAcknowledged
  /// The device's store could not be read or written (the batch could not be made, an
  /// acknowledgement not kept); tried again later.
  case storeFailed(StoreError)
  /// The next batch could not be encoded (an event as JSON, or its compression); tried again
  /// later.
  case batchNotEncoded

  /// Why a collector could not be reached.
  public enum Connection: Sendable, Hashable {
    /// The device has no network (or the app may not use it now).
    case offline
    /// The collector's name did not resolve, or nothing answered at its address.
    case collectorNotFound
    /// No answer came in time.
    case timedOut
    /// The connection could not be made secure (a certificate, TLS).
    case insecure
    /// The connection broke before the answer came.
    case lost
    /// Another URL loading failure, by its `URLError` code.
    case other(code: Int)
  }

  public var description: String {
    switch self {
    case .rejected(let session, let seq, let reason, let message):
      "the collector refused event \(seq) of session '\(session)' (\(reason.rawValue)): \(message); the session waits there"
    case .tokenRefused(let status):
      "the collector refused the upload token (\(status)): check that it is an ingest token of this app, not revoked, and whole; uploading stopped until start() is called"
    case .unreachable(let connection):
      "the collector could not be reached: \(connection); uploading will be tried again"
    case .busy(let status):
      "the collector asked to wait (\(status)); uploading will be tried again"
    case .unexpectedAnswer(let status):
      "the collector answered \(status), which the contract does not expect; uploading will be tried again"
    case .nothingAcknowledged:
      "the collector acknowledged none of the batch; it will be sent again"
    case .storeFailed(let error):
      "the device's store failed while uploading: \(error); uploading will be tried again"
    case .batchNotEncoded:
      "the next batch could not be encoded for upload; it will be tried again"
    }
  }
}

extension UploadProblem.Connection {
  /// The reason a URL loading failure gives.
  init(_ error: URLError) {
    switch error.code {
    case .notConnectedToInternet, .dataNotAllowed, .internationalRoamingOff, .callIsActive: self = .offline
    case .cannotFindHost, .dnsLookupFailed, .cannotConnectToHost: self = .collectorNotFound
    case .timedOut: self = .timedOut
    case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
      .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected,
      .clientCertificateRequired:
      self = .insecure
    case .networkConnectionLost: self = .lost
    default: self = .other(code: error.code.rawValue)
    }
  }
}

extension UploadProblem.Connection: CustomStringConvertible {
  public var description: String {
    switch self {
    case .offline: "the device is offline"
    case .collectorNotFound: "no collector answered at its address"
    case .timedOut: "no answer came in time"
    case .insecure: "the connection could not be made secure"
    case .lost: "the connection was lost"
    case .other(let code): "URL loading failed (URLError \(code))"
    }
  }
}

/// How one `flush()` ended.
public enum FlushOutcome: Sendable, Hashable {
  /// Nothing waits (but held sessions).
  case done
  /// The collector could not take it now (it asked to wait, or could not be reached): the
  /// background loop tries again after this long (the collector's `Retry-After`, capped at
  /// `maximumBackoff`, or the backoff).
  case willRetry(after: Duration)
  /// `flush(within:)`'s limit passed first: the request under way was cancelled, and what it
  /// carried waits in the store, to be sent again.
  case deadlineReached
  /// The token was refused: nothing more is sent until `start()`.
  case stopped
  /// The day's `UploadBudget` is spent, or too little of it is left for the next event: the
  /// rest waits for the next UTC day, or for a network that is not expensive.
  case overBudget
}
