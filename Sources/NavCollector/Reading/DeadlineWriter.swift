import Hummingbird
import NIOCore
import NavFleet

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
    try await TimeLimit.run(within: limit) { try await self.writer.write(buffer) }
  }

  func finish() async throws {
    let last = writer
    try await last.finish(nil)
  }
}
