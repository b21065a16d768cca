import NavCore

/// Read-only connections to the store's file, so that reads run beside the writer.
///
/// In WAL mode a reader sees the last committed state and never waits for the writer (nor the
/// writer for it). A read takes an idle connection, or opens one when all are busy, so a read
/// inside another read's callback still works; at most `idleLimit` stay open between reads.
final class ReaderPool: Sendable {
  private let idle: Protected<[StoreEngine]>
  private let idleLimit: Int
  private let open: @Sendable () throws(StoreError) -> StoreEngine

  /// A pool that opens connections with `open`, keeping up to `idleLimit` of them; `first`, an
  /// already open one, is kept from the start.
  init(
    idleLimit: Int, first: sending StoreEngine? = nil, open: @escaping @Sendable () throws(StoreError) -> StoreEngine
  ) {
    self.idleLimit = max(1, idleLimit)
    self.open = open
    idle = Protected(first.map { [$0] } ?? [])
  }

  /// Closes the idle connections now (the store closes them before its writer).
  func closeIdleConnections() {
    idle.withLock { $0.removeAll() }
  }

  /// Runs `body` with a reader of its own, taken from the idle ones (or opened) and put back.
  func withEngine<T>(_ body: (StoreEngine) throws(StoreError) -> T) throws(StoreError) -> T {
    let engine: StoreEngine
    if let loan = idle.withLock({ $0.popLast().map(EngineLoan.init) }) {
      engine = loan.engine
    } else {
      engine = try open()
    }
    defer {
      let loan = EngineLoan(engine: engine)
      idle.withLock { idle in
        if idle.count < idleLimit { idle.append(loan.engine) }
      }
    }
    return try body(engine)
  }
}
