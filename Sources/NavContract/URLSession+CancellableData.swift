import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession {
  /// `data(for:)`, answered at once when the calling task is cancelled, without the deadlock
  /// swift-corelibs-foundation's own can fall into on Linux.
  ///
  /// There, cancelling a task that awaits `data(for:)` cancels the request synchronously on the
  /// session's queue while the Swift runtime holds the task's lock; a response that finishes at
  /// that moment, on that queue, waits for the same lock to resume the task, and both wait for
  /// good (seen as a collector that never stopped: the forwarder cancelled while a post ended).
  /// Here, cancelling only schedules the request's cancel on another queue and returns, so
  /// neither side waits on the other; the request ends as cancelled, which throws.
  package func cancellableData(for request: URLRequest) async throws -> (Data, URLResponse) {
    let pending = PendingRequest()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let task = dataTask(with: request) { data, response, error in
          if let data, let response {
            continuation.resume(returning: (data, response))
          } else {
            continuation.resume(throwing: error ?? URLError(.unknown))
          }
        }
        pending.start(task)
      }
    } onCancel: {
      pending.cancel()
    }
  }
}

/// A request that may be cancelled before or after it starts, from any thread: `cancel` never
/// calls into the session where it is called.
private final class PendingRequest: @unchecked Sendable {
  private let lock = NSLock()
  private var task: URLSessionDataTask?
  private var cancelled = false

  /// Starts `task`, or cancels it at once when the request was cancelled first.
  func start(_ task: URLSessionDataTask) {
    let wasCancelled = lock.withLock {
      self.task = task
      return cancelled
    }
    task.resume()
    if wasCancelled { Self.cancelApart(task) }
  }

  func cancel() {
    let task = lock.withLock {
      cancelled = true
      return self.task
    }
    if let task { Self.cancelApart(task) }
  }

  private static func cancelApart(_ task: URLSessionDataTask) {
    DispatchQueue.global().async { task.cancel() }
  }
}
