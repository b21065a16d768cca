import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Blocking HTTP calls through URLSession, for tests that run on threads of their own.
enum DrillHTTP {
  struct Answer {
    var status: Int
    var body: Data
    var headers: [String: String] = [:]

    var text: String { String(decoding: body, as: UTF8.self) }

    /// A header, its name in any case.
    func header(_ name: String) -> String? {
      headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }
  }

  static func get(_ url: String) throws -> Answer {
    try send(URLRequest(url: try address(url)))
  }

  /// A GET with `token`, and any other `headers`.
  static func get(_ url: String, token: String, headers: [String: String] = [:], timeout: Double = 60) throws -> Answer
  {
    var request = URLRequest(url: try address(url))
    request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    return try send(request, timeout: timeout)
  }

  static func post(
    _ url: String, token: String, body: Data, gzip: Bool = false, headers: [String: String] = [:], timeout: Double = 60
  ) throws -> Answer {
    var request = URLRequest(url: try address(url))
    request.httpMethod = "POST"
    request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    request.setValue("application/x-ndjson", forHTTPHeaderField: "Content-Type")
    if gzip { request.setValue("gzip", forHTTPHeaderField: "Content-Encoding") }
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    request.httpBody = body
    return try send(request, timeout: timeout)
  }

  private static func address(_ text: String) throws -> URL {
    guard let url = URL(string: text) else { throw URLError(.badURL) }
    return url
  }

  private static func send(_ request: URLRequest, timeout: Double = 60) throws -> Answer {
    let done = DispatchSemaphore(value: 0)
    let result = LockedResult()
    var request = request
    request.timeoutInterval = timeout
    let task = URLSession.shared.dataTask(with: request) { data, response, error in
      let http = response as? HTTPURLResponse
      result.set(
        data: data, status: http?.statusCode, error: error, headers: http?.allHeaderFields as? [String: String])
      done.signal()
    }
    task.resume()
    // URLSession's own timeout is for a quiet connection; this bounds the whole exchange, so a
    // callback that never comes is an error in the test that waited, not a hung suite.
    guard done.wait(timeout: .now() + timeout + 10) == .success else {
      task.cancel()
      throw URLError(.timedOut)
    }
    return try result.answer()
  }

  private final class LockedResult: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?
    private var status: Int?
    private var error: (any Error)?
    private var headers: [String: String] = [:]

    func set(data: Data?, status: Int?, error: (any Error)?, headers: [String: String]?) {
      lock.withLock { (self.data, self.status, self.error, self.headers) = (data, status, error, headers ?? [:]) }
    }

    func answer() throws -> Answer {
      try lock.withLock {
        if let error { throw error }
        return Answer(status: status ?? 0, body: data ?? Data(), headers: headers)
      }
    }
  }
}
