import Hummingbird
import NIOCore
import NavCore
import NavFleet
import Synchronization

/// The least pace a request's body must keep: past a short grace, at least `bytesPerSecond` for
/// each second after the grace, checked twice a second whether bytes come or not. A body sent a byte
/// at a time, or not at all, loses its place in its pool within seconds (408), where the idle
/// and whole-body timeouts would let it hold that place for a minute; a phone on a slow link
/// sends faster than this.
enum BodyPace {
  /// The average a body must keep once the grace is over.
  static let bytesPerSecond = 1_024
  /// How long a body may take before it is held to the pace: a connection's first round trips.
  static let grace = Duration.seconds(2)

  /// Why a body was cut off: it fell behind the pace.
  struct TooSlow: Error {}

  /// The bytes a body has brought so far, counted as it is read.
  final class Progress: Sendable {
    private let bytes = Atomic(0)

    /// Counts `count` more bytes.
    func add(_ count: Int) { bytes.add(count, ordering: .relaxed) }

    var count: Int { bytes.load(ordering: .relaxed) }
  }

  /// Why a read was stopped by its watch.
  private enum Stop: Int {
    case none, tooSlow, expired
  }

  /// Runs `read` (which counts the body's bytes into the progress it is given) within `limit` in
  /// all, and cancels it as soon as the body falls behind the pace: throws `TooSlow` then,
  /// `TimeLimit.Expired` past `limit` (to the half second), and whatever `read` throws
  /// otherwise. One watch on NIO's timers keeps both deadlines (see `TimeLimit`), and is gone
  /// when the read ends.
  static func read<T: Sendable>(
    within limit: Duration, _ read: @escaping @Sendable (Progress) async throws -> T
  ) async throws -> T {
    let progress = Progress()
    let stop = Atomic(Stop.none.rawValue)
    let started = ContinuousClock.now
    let task = Task { try await read(progress) }
    let watch = TimeLimit.anyLoop().scheduleRepeatedTask(initialDelay: .milliseconds(500), delay: .milliseconds(500)) {
      watch in
      let elapsed = ContinuousClock.now - started
      let why: Stop
      if elapsed >= limit {
        why = .expired
      } else if elapsed > grace, Double(progress.count) < Double(bytesPerSecond) * (elapsed - grace).inSeconds {
        why = .tooSlow
      } else {
        return
      }
      stop.store(why.rawValue, ordering: .sequentiallyConsistent)
      task.cancel()
      watch.cancel()
    }
    defer { watch.cancel() }
    do {
      return try await withTaskCancellationHandler {
        try await task.value
      } onCancel: {
        task.cancel()
      }
    } catch {
      task.cancel()
      guard !Task.isCancelled else { throw error }
      switch Stop(rawValue: stop.load(ordering: .sequentiallyConsistent)) {
      case .tooSlow: throw TooSlow()
      case .expired: throw TimeLimit.Expired(limit: limit)
      default: throw error
      }
    }
  }

  /// A whole small body (a form, a list of ids), read within `limit` and the pace: at most
  /// `maximum` bytes (`tooLarge` past it, as soon as it is passed), and never a body shorter
  /// than its `Content-Length` (`clientWentAway`).
  static func collect(
    _ body: some AsyncSequence<ByteBuffer, any Error> & Sendable, upTo maximum: Int, declaredLength: Int?,
    within limit: Duration
  ) async throws -> ByteBuffer {
    try await read(within: limit) { progress in
      var collected = ByteBuffer()
      do {
        for try await chunk in body {
          progress.add(chunk.readableBytes)
          guard collected.readableBytes + chunk.readableBytes <= maximum else { throw CollectedBody.tooLarge }
          var chunk = chunk
          collected.writeBuffer(&chunk)
        }
      } catch let error as CollectedBody {
        throw error
      } catch {
        try Task.checkCancellation()
        throw CollectedBody.clientWentAway
      }
      try Task.checkCancellation()
      if let declaredLength, collected.readableBytes != declaredLength { throw CollectedBody.clientWentAway }
      return collected
    }
  }

  /// `collect`, its failures as the contract answers them: 413 past `maximum` (`what` names the
  /// body), 408 behind the pace or past `limit`, 499 for a client that left.
  static func collect(_ request: Request, upTo maximum: Int, within limit: Duration, what: String) async throws
    -> ByteBuffer
  {
    do {
      return try await collect(
        request.body, upTo: maximum, declaredLength: request.headers[.contentLength].flatMap { Int($0) },
        within: limit)
    } catch CollectedBody.tooLarge {
      throw CollectorError.tooLarge("\(what) is at most \(maximum) bytes")
    } catch CollectedBody.clientWentAway {
      throw CollectorError.clientClosed
    } catch is TooSlow {
      throw CollectorError.tooSlow
    } catch is TimeLimit.Expired {
      throw CollectorError.requestTimeout(limit)
    }
  }

  /// Why a small body was not collected.
  enum CollectedBody: Error {
    /// More than the endpoint takes.
    case tooLarge
    /// The connection ended before the body did.
    case clientWentAway
  }
}
