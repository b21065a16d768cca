import NavCore

/// What a session's row sums up of its events: how many, the chain value after the last, its
/// first and last times, how often the clock went back, the time spanned with the clock going
/// forward (and the part of it in the foreground), the visible depth and lifecycle phase after
/// the last event.
///
/// Written once, here, on plain values: an append computes the row it writes with
/// `adding(at:hash:depth:phase:)` from the row before it, and `verify` recomputes the same
/// totals from the events to hold the stored row to them, so every storage engine writes and
/// checks the same numbers.
package struct SessionTotals: Hashable, Sendable {
  /// The events, and so the last seq (0: none).
  package var count = 0
  /// The chain value after the last event (`HashChain.genesis` before the first).
  package var headHash = HashChain.genesis
  /// The lifecycle phase after the last event.
  package var phase = SessionPhase.foreground
  /// The first event's time.
  package var firstAt: Timestamp?
  /// The last event's time.
  package var lastAt: Timestamp?
  /// How many times were earlier than the time before them.
  package var clockJumps = 0
  /// The time from the first event to the last, each step back of the clock counted as 0,
  /// held at `ClockOrder.maximumDuration`.
  package var durationMilliseconds: Int64 = 0
  /// The part of `durationMilliseconds` whose steps began in the foreground.
  package var foregroundMilliseconds: Int64 = 0
  /// The visible depth of the state after the last event.
  package var depth = 0

  /// A session with no event.
  package init() {}

  /// The totals of a row as stored.
  package init(
    count: Int, headHash: [UInt8], phase: SessionPhase, firstAt: Timestamp?, lastAt: Timestamp?, clockJumps: Int,
    durationMilliseconds: Int64, foregroundMilliseconds: Int64, depth: Int
  ) {
    self.count = count
    self.headHash = headHash
    self.phase = phase
    self.firstAt = firstAt
    self.lastAt = lastAt
    self.clockJumps = clockJumps
    self.durationMilliseconds = durationMilliseconds
    self.foregroundMilliseconds = foregroundMilliseconds
    self.depth = depth
  }

  /// The totals after the session's next event: at `time`, chaining to `hash`, leaving a state
  /// of visible depth `depth` and the session in `phase`. The step from the event before counts
  /// as foreground time when the session was in the foreground until this event.
  package func adding(at time: Timestamp, hash: [UInt8], depth: Int, phase next: SessionPhase) -> SessionTotals {
    var totals = self
    totals.count += 1
    totals.headHash = hash
    if firstAt == nil { totals.firstAt = time }
    if let last = lastAt {
      if time < last {
        totals.clockJumps += 1
      } else {
        totals.durationMilliseconds = ClockOrder.adding(durationMilliseconds, from: last, to: time)
        if phase == .foreground {
          totals.foregroundMilliseconds = ClockOrder.adding(foregroundMilliseconds, from: last, to: time)
        }
      }
    }
    totals.lastAt = time
    totals.depth = depth
    totals.phase = next
    return totals
  }

  /// The totals after `prepared`, the session's next event.
  package func adding(_ prepared: PreparedEvent) -> SessionTotals {
    adding(at: prepared.event.at, hash: prepared.hash, depth: prepared.depth, phase: prepared.phase)
  }
}
