import Clocks
import NavCore

/// What a player showed, and when on the test clock: the test's view of the screen.
final class PlaybackLog: Sendable {
  struct Entry: Equatable, Sendable {
    var atMs: Int
    var state: AnyCoordinator
  }

  let clock: TestClock<Duration>
  private let entries = Protected<[Entry]>([])

  init(clock: TestClock<Duration>) {
    self.clock = clock
  }

  /// Records `state` at the clock's current time.
  func record(_ state: AnyCoordinator) {
    let now = TestClock<Duration>.Instant().duration(to: clock.now).components
    let atMs = Int(now.seconds) * 1000 + Int(now.attoseconds / 1_000_000_000_000_000)
    entries.withLock { $0.append(Entry(atMs: atMs, state: state)) }
  }

  var all: [Entry] { entries.withLock { $0 } }
  var count: Int { entries.withLock { $0.count } }

  /// Waits (in real time, up to 5 s) until `count` entries are recorded; `false` if they never are.
  func waitFor(count expected: Int) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: .seconds(5))
    while count < expected {
      guard ContinuousClock.now < deadline else { return false }
      try? await Task.sleep(for: .milliseconds(1))
    }
    return true
  }

  /// Lets other tasks run for a while (real time), so that a step applied too early would show.
  static func settle() async {
    for _ in 0..<20 { await Task.yield() }
    try? await Task.sleep(for: .milliseconds(5))
  }
}

extension TestClock where Duration == Swift.Duration {
  /// Moves the clock on by `step` at a time until `isDone` holds; `false` if it does not
  /// within 60 s of real time (generous: the whole suite running beside it on two cores once
  /// made 10 s too short). Unlike `run()`, this cannot end early while a player has yet to
  /// schedule its next sleep.
  func advance(
    by step: Duration = .milliseconds(50), isolation: isolated (any Actor)? = #isolation, until isDone: () async -> Bool
  ) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: .seconds(60))
    while !(await isDone()) {
      guard ContinuousClock.now < deadline else { return false }
      await advance(by: step)
      await Task.yield()
    }
    return true
  }
}
