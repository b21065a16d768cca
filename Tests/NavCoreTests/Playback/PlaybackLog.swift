import NavCore
import NavTestSupport

/// What a player showed, and when on the test clock: the test's view of the screen.
final class PlaybackLog: Sendable {
  struct Entry: Equatable, Sendable {
    var atMs: Int
    var state: AnyCoordinator
  }

  let clock: ManualClock
  private let entries = Protected<[Entry]>([])

  init(clock: ManualClock) {
    self.clock = clock
  }

  /// Records `state` at the clock's current time.
  func record(_ state: AnyCoordinator) {
    let now = clock.now.sinceStart.components
    let atMs = Int(now.seconds) * 1000 + Int(now.attoseconds / 1_000_000_000_000_000)
    entries.withLock { $0.append(Entry(atMs: atMs, state: state)) }
  }

  var all: [Entry] { entries.withLock { $0 } }
  var count: Int { entries.withLock { $0.count } }

  /// Waits (in real time, up to 60 s: a loaded machine may not run the player for seconds) until
  /// `count` entries are recorded; `false` if they never are. Every caller expects them: the
  /// bound only ends a wait for a step that never comes, and costs nothing otherwise.
  func waitFor(count expected: Int) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: .seconds(60))
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
