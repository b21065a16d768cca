import Hummingbird
import NIOCore

/// How long one piece of a request may take before the collector gives up on the client: the
/// upload's body must arrive within it, and each chunk of a streamed answer must be taken by
/// the client within it. A client that sends a byte a second, or stops reading an export,
/// holds a connection (and, for a read, the store's snapshot) for that long at most.
enum Deadline {
  /// What `run` throws when `limit` passes first.
  struct Passed: Error {}

  /// Runs `operation`, cancelling it and throwing `Passed` if `limit` passes first.
  static func run<T: Sendable>(
    _ limit: Duration, _ operation: @escaping @Sendable () async throws -> T
  ) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
      group.addTask { try await operation() }
      group.addTask {
        try await Task.sleep(for: limit)
        return nil
      }
      defer { group.cancelAll() }
      // The first to finish decides: the operation's value or error, or the deadline.
      guard let first = try await group.next(), let value = first else { throw Passed() }
      return value
    }
  }
}

/// A streamed answer's writer whose every write must be taken by the client within `limit`;
/// past it the write fails and the response ends early, closing the connection.
final class DeadlineWriter: @unchecked Sendable {
  // Reached by one write at a time: each `write` awaits its own before the next can start.
  private var writer: any ResponseBodyWriter
  private let limit: Duration

  init(_ writer: any ResponseBodyWriter, limit: Duration) {
    self.writer = writer
    self.limit = limit
  }

  func write(_ buffer: ByteBuffer) async throws {
    try await Deadline.run(limit) { try await self.writer.write(buffer) }
  }

  func finish() async throws {
    let last = writer
    try await last.finish(nil)
  }
}
