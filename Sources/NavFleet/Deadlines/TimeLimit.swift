#if Collector
import NIOCore
import NIOPosix
import Synchronization

/// Work bounded in time, its deadline kept on one of NIO's event loops.
///
/// Not `Task.sleep`: on Linux a cancelled sleep keeps its timer, and the memory that holds it,
/// until the deadline it was given. The collector bounds every request this way and answers
/// most of them in milliseconds, so each request left a timer behind for the rest of its
/// minute: tens of megabytes at a few thousand requests a second, held for anyone who sends
/// requests. An event loop's scheduled task is taken out of the loop's queue, and freed, the
/// moment it is cancelled.
package enum TimeLimit {
  /// Why the work did not answer: its deadline passed first.
  package struct Expired: Error {
    /// The limit it was given.
    package let limit: Duration

    /// Work past `limit`.
    package init(limit: Duration) { self.limit = limit }
  }

  /// The loop a deadline is kept on when the caller names none: one of NIO's shared group,
  /// the threads Hummingbird and postgres-nio already run.
  package static func anyLoop() -> any EventLoop { MultiThreadedEventLoopGroup.singleton.next() }

  /// Runs `work`, cancels it once `limit` has passed, and waits for it to end (structured:
  /// nothing it touches outlives the call); throws `Expired` when the deadline cancelled it
  /// (and the caller was not cancelled itself: then the work's own error).
  /// Work that ends before its deadline cancels the timer; `watch` is given the timer.
  package static func run<T: Sendable>(
    within limit: Duration, on loop: any EventLoop = anyLoop(),
    watch: (Scheduled<Void>) -> Void = { _ in }, _ work: @escaping @Sendable () async throws -> T
  ) async throws -> T {
    let expired = Atomic(false)
    let task = Task { try await work() }
    let timer = loop.scheduleTask(in: TimeAmount(limit)) {
      expired.store(true, ordering: .sequentiallyConsistent)
      task.cancel()
    }
    watch(timer)
    defer { timer.cancel() }
    do {
      return try await withTaskCancellationHandler {
        try await task.value
      } onCancel: {
        task.cancel()
      }
    } catch {
      if expired.load(ordering: .sequentiallyConsistent), !Task.isCancelled { throw Expired(limit: limit) }
      throw error
    }
  }

  /// `work`'s answer, or `Expired` as soon as `limit` has passed, whichever comes first; the
  /// work is then cancelled and left to end by itself. For a call that may ignore its
  /// cancellation (a connection leased from a pool whose database is gone): it cannot hold its
  /// caller past the deadline, as work the caller waits for would. `watch` is given the timer
  /// (a test's can see it cancelled).
  package static func answer<T: Sendable>(
    within limit: Duration, on loop: any EventLoop = anyLoop(),
    watch: (Scheduled<Void>) -> Void = { _ in }, _ work: @escaping @Sendable () async throws -> T
  ) async throws -> T {
    let answer = FirstAnswer<T>()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        answer.await(continuation)
        let task = Task {
          do {
            answer.give(.success(try await work()))
          } catch {
            answer.give(.failure(error))
          }
        }
        answer.runs(task)
        let timer = loop.scheduleTask(in: TimeAmount(limit)) {
          if answer.give(.failure(Expired(limit: limit))) { task.cancel() }
        }
        watch(timer)
        answer.time(timer)
      }
    } onCancel: {
      answer.cancelWork()
    }
  }
}

/// The first of several answers to one continuation; the later ones are dropped. The first
/// answer cancels the deadline's timer.
private final class FirstAnswer<T: Sendable>: Sendable {
  private struct Waiting {
    var continuation: CheckedContinuation<T, any Error>?
    var timer: Scheduled<Void>?
    var work: Task<Void, Never>?
    var answered = false
    var cancelled = false
  }
  private let waiting = Mutex(Waiting())

  /// Sets the continuation the answers go to (before any is given).
  func await(_ continuation: CheckedContinuation<T, any Error>) {
    waiting.withLock { $0.continuation = continuation }
  }

  /// Keeps the work's task, to cancel with the caller (at once if the caller was cancelled).
  func runs(_ work: Task<Void, Never>) {
    let cancelled = waiting.withLock { state -> Bool in
      if !state.answered { state.work = work }
      return state.cancelled
    }
    if cancelled { work.cancel() }
  }

  /// The caller was cancelled: so is its work, which then answers as it ends.
  func cancelWork() {
    let work = waiting.withLock { state -> Task<Void, Never>? in
      state.cancelled = true
      return state.work
    }
    work?.cancel()
  }

  /// Keeps the deadline's timer, to cancel at the first answer (at once if it was given).
  func time(_ timer: Scheduled<Void>) {
    let answered = waiting.withLock { state -> Bool in
      if !state.answered { state.timer = timer }
      return state.answered
    }
    if answered { timer.cancel() }
  }

  /// Resumes the continuation with `result` unless it was resumed already; whether it was now.
  @discardableResult
  func give(_ result: Result<T, any Error>) -> Bool {
    let (taken, timer) = waiting.withLock { state -> (CheckedContinuation<T, any Error>?, Scheduled<Void>?) in
      guard !state.answered else { return (nil, nil) }
      state.answered = true
      defer { (state.continuation, state.timer, state.work) = (nil, nil, nil) }
      return (state.continuation, state.timer)
    }
    guard let taken else { return false }
    timer?.cancel()
    taken.resume(with: result)
    return true
  }
}
#endif
