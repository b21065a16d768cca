import Foundation
import NavContract
import NavJSON

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Posts OTLP/HTTP JSON requests to the endpoint, and reads what it answered.
struct OTLPSender: Sendable {
  /// One post's outcome.
  struct Outcome: Sendable {
    /// How the attempt ended, for `RetryPolicy` (any 2xx is a 200).
    var attempt: RetryPolicy.Attempt
    /// The records the endpoint took the request but refused (OTLP's `partialSuccess`).
    var rejected: Int
    /// What the endpoint said of them, or of its refusal, cut to a line.
    var message: String?
  }

  let endpoint: URL
  let headers: [(name: String, value: String)]
  let session: URLSession

  init(_ configuration: ForwardingConfiguration) {
    endpoint = configuration.endpoint
    headers = configuration.headers
    let settings = URLSessionConfiguration.ephemeral
    settings.timeoutIntervalForRequest = configuration.requestTimeout.inSeconds
    settings.timeoutIntervalForResource = configuration.requestTimeout.inSeconds
    settings.urlCache = nil
    settings.httpCookieStorage = nil
    settings.httpShouldSetCookies = false
    // A redirect is answered as it is, never followed: following would carry the key to another
    // host, or turn the POST into a GET whose 200 would read as the records taken.
    session = URLSession(configuration: settings, delegate: RedirectRefusal(), delegateQueue: nil)
  }

  /// Posts `body`.
  func post(_ body: [UInt8]) async -> Outcome {
    var request = URLRequest(url: endpoint)
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    request.httpBody = Data(body)
    guard let (data, response) = try? await session.cancellableData(for: request),
      let http = response as? HTTPURLResponse
    else { return Outcome(attempt: .noAnswer, rejected: 0, message: nil) }
    let status = (200..<300).contains(http.statusCode) ? 200 : http.statusCode
    let retryAfter = RetryPolicy.retryAfter(http.value(forHTTPHeaderField: "Retry-After"))
    let answer = try? JSONParser.parse(Array(data.prefix(64 * 1024)))
    let partial = answer?.objectValue?["partialSuccess"]?.objectValue
    var rejected = 0
    switch partial?["rejectedLogRecords"] {
    case .string(let text)?: rejected = Int(text) ?? 0
    case .number(let number)?: rejected = number.isFinite && number >= 0 && number < 1e15 ? Int(number) : 0
    default: break
    }
    let said = partial?["errorMessage"]?.stringValue ?? answer?.objectValue?["message"]?.stringValue
    return Outcome(
      attempt: .answered(status: status, retryAfter: retryAfter), rejected: max(0, rejected),
      message: said.map { String($0.prefix(200)) })
  }
}

/// Refuses every redirect: the 3xx itself is the answer, which the forwarder sends again later.
private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    completionHandler(nil)
  }
}
