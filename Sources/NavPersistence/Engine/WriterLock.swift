import NavCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The store's one writing connection, used by one thread at a time.
///
/// A mutex, plus the thread that holds it: a write started on that same thread (from inside a
/// callback of the write under way) would wait for itself, which a plain mutex reports by
/// trapping. Here it is refused with `StoreError.reentrantWrite` instead.
final class WriterLock: Sendable {
  private let engine: Protected<StoreEngine>
  /// The holding thread's identity, or 0.
  private let owner = Protected<UInt>(0)

  init(_ engine: sending StoreEngine) {
    self.engine = Protected(engine)
  }

  /// Runs `body` with the writer, waiting for other threads' writes to finish first.
  func withEngine<T>(_ body: (StoreEngine) throws(StoreError) -> T) throws(StoreError) -> T {
    let me = Self.currentThread
    if owner.withLock({ $0 }) == me { throw StoreError.reentrantWrite }
    return try engine.withLock { engine throws(StoreError) in
      owner.withLock { $0 = me }
      defer { owner.withLock { $0 = 0 } }
      return try body(EngineLoan(engine: engine).engine)
    }
  }

  private static var currentThread: UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
  }
}
