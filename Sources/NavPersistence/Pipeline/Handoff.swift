import Foundation

/// A bounded queue from one producing thread to one consuming thread, in order.
///
/// The producer waits while `capacity` chunks are waiting (so it runs at most that far ahead,
/// and memory stays bounded), the consumer while none is. Either side may stop early: the
/// consumer by `cancel()` (the producer's next `send` says so, and a waiting `receive` returns
/// `nil`), the producer by `finish()`.
final class Handoff<Chunk: Sendable>: @unchecked Sendable {
  // @unchecked: every stored property below is read and written with `condition` locked.
  private let condition = NSCondition()
  private let capacity: Int
  /// At most `capacity` chunks, so taking the first is cheap.
  private var waiting: [Chunk] = []
  private var finished = false
  private var cancelled = false

  init(capacity: Int) {
    self.capacity = max(1, capacity)
  }

  /// Queues a chunk, waiting for room; `false` when the consumer has cancelled (the chunk is
  /// dropped and the producer should stop).
  func send(_ chunk: Chunk) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while waiting.count >= capacity, !cancelled { condition.wait() }
    if cancelled { return false }
    waiting.append(chunk)
    condition.broadcast()
    return true
  }

  /// The producer has sent its last chunk (or stopped): the consumer gets `nil` once the queue
  /// is empty, and `waitUntilFinished` returns.
  func finish() {
    condition.lock()
    finished = true
    condition.broadcast()
    condition.unlock()
  }

  /// The next chunk, waiting for one; `nil` when the producer has finished and all are taken,
  /// or when the queue was cancelled.
  func receive() -> Chunk? {
    receive(waiting: true)
  }

  /// The next chunk when one is waiting, without waiting.
  func receiveIfReady() -> Chunk? {
    receive(waiting: false)
  }

  private func receive(waiting mayWait: Bool) -> Chunk? {
    condition.lock()
    defer { condition.unlock() }
    while mayWait, waiting.isEmpty, !finished, !cancelled { condition.wait() }
    guard !waiting.isEmpty else { return nil }
    let chunk = waiting.removeFirst()
    condition.broadcast()  // room for the producer
    return chunk
  }

  /// The consumer stops taking chunks: the producer's next `send` returns `false`, and chunks
  /// waiting are dropped.
  func cancel() {
    condition.lock()
    cancelled = true
    waiting.removeAll()
    condition.broadcast()
    condition.unlock()
  }

  /// Waits until the producer has called `finish()`, so nothing it holds is used any more.
  func waitUntilFinished() {
    condition.lock()
    while !finished { condition.wait() }
    condition.unlock()
  }
}
