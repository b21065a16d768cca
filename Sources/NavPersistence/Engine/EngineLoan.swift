/// An engine lent by its owner (the writer lock, the reader pool) to the closure that runs
/// while the owner holds it for that closure alone.
///
/// `StoreEngine` is not `Sendable`: one engine must never be used by two threads at once, so
/// the compiler keeps it out of tasks and `@Sendable` closures. Its owners lend it to one
/// non-escaping closure at a time, and take it back when the closure returns. Swift's region
/// checker cannot see the giving back: it assumes a closure may keep what it was handed, and
/// so refuses to let a value leave a lock (`Protected`) for a caller's closure. The loan is where that one
/// step is taken unchecked; nothing else about the engine is.
struct EngineLoan: @unchecked Sendable {
  /// The engine lent.
  let engine: StoreEngine
}
