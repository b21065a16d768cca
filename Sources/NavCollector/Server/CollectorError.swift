import Foundation
import HTTPTypes
import Hummingbird
import NavContract
import NavCore
import NavIngest

/// A refusal as the collector's contract words it: a status, and a JSON body
/// `{"error": CODE, "message": TEXT}` whose one sentence says what to do.
struct CollectorError: HTTPResponseError {
  var status: HTTPResponse.Status
  /// The machine-readable code (`unauthorized`, `too-large`, ...).
  var code: String
  var message: String
  var headers: HTTPFields = [:]
  /// What the operator's log says of it beyond the code: the failure underneath (a full disk, a
  /// store file removed). Never sent to the client, and never a token, session id or payload.
  var cause: String? = nil

  func response(from request: Request, context: some RequestContext) throws -> Response {
    var headers = headers
    headers[.contentType] = "application/json"
    let body = try ContractJSON.encode(ErrorBody(error: code, message: message))
    return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
  }

  static let unauthorized = CollectorError(
    status: .unauthorized, code: "unauthorized",
    message: "Send a valid, unrevoked token: 'Authorization: Bearer TOKEN' ('navstore token create' makes one).",
    headers: [.wwwAuthenticate: "Bearer"])

  static func forbidden(_ role: String) -> CollectorError {
    CollectorError(
      status: .forbidden, code: "forbidden",
      message: "This token's role may not do this; use a token with role \(role).")
  }

  /// A console form posted from another site (a forged sign-in or sign-out).
  static let forbiddenForm = CollectorError(
    status: .forbidden, code: "forbidden",
    message: "The console takes its forms from its own pages only; open the console and send it from there.")

  static let notFound = CollectorError(
    status: .notFound, code: "not-found", message: "No such session for this token's app, or no such endpoint.")

  static func tooLarge(_ what: String) -> CollectorError {
    CollectorError(
      status: .contentTooLarge, code: "too-large",
      message: "\(what); nothing of the request was stored. Split the batch and send the halves.")
  }

  static let unsupportedMediaType = CollectorError(
    status: .unsupportedMediaType, code: "unsupported-media-type",
    message: "Send 'Content-Type: application/x-ndjson', with 'Content-Encoding: gzip' or no encoding.")

  /// A body of another type than the endpoint's `expected` one.
  static func unsupportedMediaType(expected: String) -> CollectorError {
    CollectorError(
      status: .unsupportedMediaType, code: "unsupported-media-type", message: "Send 'Content-Type: \(expected)'.")
  }

  /// A body framed by a transfer coding other than `chunked` (RFC 9112, 6.1): it cannot be
  /// read as sent.
  static let unknownTransferCoding = CollectorError(
    status: .badRequest, code: "bad-request",
    message: "Send the body with Content-Length, or with 'Transfer-Encoding: chunked' and no other coding.",
    headers: [.connection: "close"])

  /// A JSON body that is not what the endpoint takes.
  static func badBody(_ problem: String) -> CollectorError {
    CollectorError(status: .badRequest, code: "bad-request", message: "The request's body is wrong: \(problem).")
  }

  /// A device signature that cannot be checked, or does not verify.
  static func badSignature(_ problem: String) -> CollectorError {
    CollectorError(
      status: .unauthorized, code: "bad-signature",
      message: "The upload's device signature does not hold: \(problem). Do not resend it as it is.",
      headers: [.wwwAuthenticate: "Bearer"])
  }

  static func badQuery(_ problem: String) -> CollectorError {
    CollectorError(status: .badRequest, code: "bad-query", message: "A query parameter is wrong: \(problem).")
  }

  static func unreadableBody(_ failure: GzipInflater.Failure) -> CollectorError {
    let what =
      switch failure {
      case .malformed: "does not inflate (or has bytes after a gzip member that begin no other member)"
      case .truncated: "ends inside a gzip member (or holds none)"
      }
    return CollectorError(
      status: .badRequest, code: "unreadable-body",
      message: "The body says it is gzip but \(what); nothing was stored. Send it again as valid gzip, or uncompressed."
    )
  }

  static func requestTimeout(_ limit: Duration) -> CollectorError {
    CollectorError(
      status: .requestTimeout, code: "request-timeout",
      message:
        "The body took longer than \(limit.components.seconds) s to arrive; nothing was stored. Send it again, in smaller batches on a slow link.",
      headers: [.connection: "close"])
  }

  /// A body that fell behind the least pace (`BodyPace`): it lost its place in its pool.
  static let tooSlow = CollectorError(
    status: .requestTimeout, code: "request-timeout",
    message:
      "The body arrived slower than \(BodyPace.bytesPerSecond) bytes a second; nothing was stored. Send it again, in smaller batches on a slow link.",
    headers: [.connection: "close"])

  static func unavailable(_ reason: String, retryAfter seconds: Int = 1, cause: String? = nil) -> CollectorError {
    CollectorError(
      status: .serviceUnavailable, code: "unavailable",
      message: "\(reason); nothing was stored. Retry after \(seconds) s.", headers: [.retryAfter: "\(seconds)"],
      cause: cause)
  }

  static func tooManyRequests(_ reason: String, retryAfter seconds: Int) -> CollectorError {
    CollectorError(
      status: .tooManyRequests, code: "too-many-requests", message: "\(reason).",
      headers: [.retryAfter: "\(seconds)"])
  }

  /// A failure that is the collector's own (a bug): the client may resend; the log says what.
  static func `internal`(cause: String) -> CollectorError {
    CollectorError(
      status: .internalServerError, code: "internal",
      message:
        "The collector failed to answer; nothing of this request was acknowledged. Retry later, and report it if it lasts.",
      cause: cause)
  }

  /// The client went away before its request was whole: nothing is answered (nobody is there
  /// to read it), and the log and metrics count it apart from the collector's own failures,
  /// under nginx's 499.
  static let clientClosed = CollectorError(
    status: HTTPResponse.Status(code: 499, reasonPhrase: "Client Closed Request"), code: "client-closed",
    message: "The connection closed before the request was whole; nothing was stored.",
    cause: "the client closed the connection before its body was whole")
}
