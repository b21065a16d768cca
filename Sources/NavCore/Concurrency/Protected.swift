#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value shared between threads, reached only while its lock is held.
///
/// What the standard library's `Mutex` offers, with the same `sending` rules, on the systems
/// apps still support: `Mutex` needs iOS 18 and macOS 15, this needs nothing. A class (the lock must not move in memory),
/// built on the system's pthread mutex.
package final class Protected<State>: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var state: State

  /// Shares `state`.
  package init(_ state: sending State) {
    self.state = state
    mutex = UnsafeMutablePointer.allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` with the value, holding the lock for its whole run: no other thread sees the
  /// value until `body` returns. `body` must not take this lock again.
  package func withLock<Result, Failure: Error>(
    _ body: (inout sending State) throws(Failure) -> sending Result
  ) throws(Failure) -> sending Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&state)
  }
}
