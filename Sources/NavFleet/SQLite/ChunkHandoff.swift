import Foundation

/// Chunks handed from a thread that makes them (an export, on the store's queue) to the task
/// that sends them, at most `capacity` waiting: the maker blocks while the sender is behind,
/// so a slow client holds the export back instead of filling the server's memory. When the
/// sender stops (the client went away), the maker's next `put` throws and the export ends.
final class ChunkHandoff: @unchecked Sendable {
  /// The sender stopped taking chunks.
  struct Stopped: Error {}

  private let condition = NSCondition()
  private let capacity: Int
  private var chunks: [[UInt8]] = []
  private var finished = false
  private var failure: (any Error)?
  private var stopped = false
  private var waiting: CheckedContinuation<[UInt8]?, any Error>?

  init(capacity: Int = 8) { self.capacity = capacity }

  // MARK: The maker's side (blocking)

  /// Hands over a chunk, waiting while `capacity` chunks are not yet taken.
  func put(_ chunk: [UInt8]) throws {
    condition.lock()
    while chunks.count >= capacity, !stopped { condition.wait() }
    guard !stopped else {
      condition.unlock()
      throw Stopped()
    }
    if let waiting {
      self.waiting = nil
      condition.unlock()
      waiting.resume(returning: chunk)
      return
    }
    chunks.append(chunk)
    condition.unlock()
  }

  /// No more chunks: the end, or the failure that cut the making short.
  func finish(_ error: (any Error)?) {
    condition.lock()
    finished = true
    failure = error
    let waiting = self.waiting
    self.waiting = nil
    condition.unlock()
    if let error { waiting?.resume(throwing: error) } else { waiting?.resume(returning: nil) }
  }

  // MARK: The sender's side

  /// The next chunk, `nil` at the end; throws the making's failure.
  func next() async throws -> [UInt8]? {
    try await withCheckedThrowingContinuation { continuation in take(into: continuation) }
  }

  /// Resumes `continuation` with a chunk, the end or the failure, or keeps it until the maker
  /// puts one.
  private func take(into continuation: CheckedContinuation<[UInt8]?, any Error>) {
    condition.lock()
    if !chunks.isEmpty {
      let chunk = chunks.removeFirst()
      condition.signal()
      condition.unlock()
      continuation.resume(returning: chunk)
    } else if finished {
      let failure = self.failure
      condition.unlock()
      if let failure { continuation.resume(throwing: failure) } else { continuation.resume(returning: nil) }
    } else {
      waiting = continuation
      condition.unlock()
    }
  }

  /// The sender takes no more: a maker waiting to put is released, and fails.
  func stop() {
    condition.lock()
    stopped = true
    condition.broadcast()
    condition.unlock()
  }
}
