import Foundation
import Synchronization

/// Ctrl-C during a long command: the handler only raises a flag, and the command stops at its
/// next check, cleanly (its output so far is complete lines).
enum Interruption {
  private static let raised = Atomic<Bool>(false)

  /// Starts listening for SIGINT. The signal is also unblocked: a blocked mask is inherited from
  /// whatever started this process, and would otherwise keep Ctrl-C from ever arriving.
  static func install() {
    signal(SIGINT) { _ in Interruption.raised.store(true, ordering: .relaxed) }
    var signals = sigset_t()
    sigemptyset(&signals)
    sigaddset(&signals, SIGINT)
    sigprocmask(SIG_UNBLOCK, &signals, nil)
  }

  /// Whether Ctrl-C was pressed.
  static var wasRaised: Bool { raised.load(ordering: .relaxed) }

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
