import Atomics
import Foundation

/// Ctrl-C (SIGINT) or SIGTERM during a long command: the handler only records the signal, and
/// the command stops at its next check, cleanly (its output so far is complete lines), exiting
/// with 128 plus the signal's number, as a shell reports a process a signal stopped.
enum Interruption {
  /// The signal received, or 0.
  private static let received = ManagedAtomic<Int32>(0)

  /// Starts listening for SIGINT and SIGTERM. The signals are also unblocked: a blocked mask is
  /// inherited from whatever started this process, and would otherwise keep them from arriving.
  static func install() {
    // The static is made on first use: made here, so that the handler never allocates.
    _ = received.load(ordering: .relaxed)
    signal(SIGINT) { number in Interruption.received.store(number, ordering: .relaxed) }
    signal(SIGTERM) { number in Interruption.received.store(number, ordering: .relaxed) }
    var signals = sigset_t()
    sigemptyset(&signals)
    sigaddset(&signals, SIGINT)
    sigaddset(&signals, SIGTERM)
    sigprocmask(SIG_UNBLOCK, &signals, nil)
  }

  /// Whether a signal arrived.
  static var wasRaised: Bool { received.load(ordering: .relaxed) != 0 }

  /// The exit status for the signal received: 130 for SIGINT, 143 for SIGTERM.
  static var exitStatus: Int32 { 128 + received.load(ordering: .relaxed) }

  /// Sleeps `milliseconds`, in short slices so an interruption is noticed at once; returns
  /// `false` when interrupted.
  static func sleep(milliseconds: Int) -> Bool {
    var remaining = milliseconds
    while remaining > 0 {
      if wasRaised { return false }
      let slice = min(remaining, 50)
      usleep(UInt32(slice) * 1000)
      remaining -= slice
    }
    return !wasRaised
  }
}
