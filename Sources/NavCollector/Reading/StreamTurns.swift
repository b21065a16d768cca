import Synchronization

/// Turns at making the pieces of long read streams (exports, histories): at most `atOnce`
/// streams read and encode a piece at the same moment; the others wait, first come first
/// served, while theirs go out to their clients.
///
/// A stream goes as fast as the CPU lets it, and every one made at once takes a thread's share
/// of the cores: sixteen exports at once left the uploads' writer about a seventeenth of them
/// (on two cores, uploads fell to a twentieth of their rate). Taking turns piece by piece keeps
/// every stream moving (a piece is about 64 KiB) while the streams together use at most
/// `atOnce` threads, and the uploads keep the rest. The read pool still bounds how many
/// streams are open.
final class StreamTurns: Sendable {
  /// The most streams making a piece at once.
  let atOnce: Int
  private let state: Mutex<State>

  private struct State {
    var taken = 0
    var lastTicket: UInt64 = 0
    var waiting: [(ticket: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
  }

  /// Turns for `atOnce` streams at a time (one at least).
  init(atOnce: Int) {
    self.atOnce = max(1, atOnce)
    state = Mutex(State())
  }

  /// Waits for a turn; throws `CancellationError` when the waiting task is cancelled first
  /// (the client went away), holding no turn then.
  func take() async throws {
    let ticket: UInt64? = state.withLock { state in
      if state.taken < atOnce {
        state.taken += 1
        return nil
      }
      state.lastTicket += 1
      return state.lastTicket
    }
    guard let ticket else { return }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let now: Result<Void, any Error>? = state.withLock { state in
          if Task.isCancelled { return .failure(CancellationError()) }
          // A turn given back since the first look.
          if state.taken < atOnce {
            state.taken += 1
            return .success(())
          }
          state.waiting.append((ticket, continuation))
          return nil
        }
        if let now { continuation.resume(with: now) }
      }
    } onCancel: {
      let waiter = state.withLock { state in
        state.waiting.firstIndex { $0.ticket == ticket }.map { state.waiting.remove(at: $0) }
      }
      waiter?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Gives a turn back: to the stream that has waited longest, if any.
  func giveBack() {
    let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
      guard state.waiting.isEmpty else { return state.waiting.removeFirst().continuation }
      state.taken = max(0, state.taken - 1)
      return nil
    }
    next?.resume()
  }

  /// Turns taken now, and streams waiting for one: for tests.
  var counts: (taken: Int, waiting: Int) { state.withLock { ($0.taken, $0.waiting.count) } }
}

/// One stream's hold on `StreamTurns`, given back whenever the stream stops making a piece:
/// before each write, and once the stream ends however it ends.
final class StreamTurn {
  private let turns: StreamTurns
  private var holds = false

  /// A stream's hold, holding no turn yet.
  init(_ turns: StreamTurns) { self.turns = turns }

  deinit { release() }

  /// Holds a turn (waiting for one when all are taken), unless it holds one already.
  func take() async throws {
    guard !holds else { return }
    try await turns.take()
    holds = true
  }

  /// Gives the turn back, if it holds one.
  func release() {
    guard holds else { return }
    holds = false
    turns.giveBack()
  }
}
