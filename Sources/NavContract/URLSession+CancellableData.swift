import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession {
  /// `data(for:)`, which throws `URLError(.cancelled)` at once when the calling task is
  /// cancelled, without calling into the session then.
  ///
  /// On Linux, swift-corelibs-foundation's own `data(for:)` cancels the request synchronously on
  /// the session's queue while the Swift runtime holds the task's lock; an answer that arrives at
  /// that moment, on that queue, waits for the same lock, and both wait for good (a collector
  /// that never stopped: the forwarder cancelled while a post ended). Cancelling the request
  /// from another queue instead crashes when it ends in between (the session no longer knows
  /// the request). So a cancelled caller is answered at once, and the request is left to end on
  /// its own, by its answer or its timeout, its result dropped.
  package func cancellableData(for request: URLRequest) async throws -> (Data, URLResponse) {
    let answer = OneAnswer()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        guard answer.wait(continuation) else { return }
        dataTask(with: request) { data, response, error in
          if let data, let response {
            answer.give(.success((data, response)))
          } else {
            answer.give(.failure(error ?? URLError(.unknown)))
          }
        }.resume()
      }
    } onCancel: {
      answer.give(.failure(URLError(.cancelled)))
    }
  }
}

/// The one answer a request gives its caller: the first of its response and its caller's
/// cancellation, whichever comes first, from any thread.
private final class OneAnswer: @unchecked Sendable {
  private let lock = NSLock()
  private var continuation: CheckedContinuation<(Data, URLResponse), any Error>?
  private var early: Result<(Data, URLResponse), any Error>?
  private var given = false

  /// Holds `continuation` for the answer; `false` (the continuation resumed) when the caller
  /// was cancelled before the request started.
  func wait(_ continuation: CheckedContinuation<(Data, URLResponse), any Error>) -> Bool {
    let answered: Result<(Data, URLResponse), any Error>? = lock.withLock {
      if let early { return early }
      self.continuation = continuation
      return nil
    }
    guard let answered else { return true }
    continuation.resume(with: answered)
    return false
  }

  /// Gives `result`, unless an answer was given already.
  func give(_ result: Result<(Data, URLResponse), any Error>) {
    let waiting: CheckedContinuation<(Data, URLResponse), any Error>? = lock.withLock {
      guard !given else { return nil }
      given = true
      if continuation == nil { early = result }
      defer { continuation = nil }
      return continuation
    }
    waiting?.resume(with: result)
  }
}
