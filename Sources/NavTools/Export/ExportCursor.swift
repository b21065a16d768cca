@_spi(Internals) import NavArchive
import NavPersistence

extension StoreEngine {
  /// The last number under which the store received events (`StoreEngine.lastReceived`):
  /// every write that took a number at or below it has committed, since writers take turns on
  /// the file.
  func receivedCursor() throws(StoreError) -> Int64 {
    let statement = try prepare("SELECT \(Self.lastReceived)")
    defer { statement.reset() }
    guard try step(statement), !statement.isNull(0) else { throw StoreError.damaged(path: path) }
    return statement.int64(0)
  }
}

extension SessionStore {
  /// The cursor an export begun now answers to (its filter's `through`): what the store holds
  /// now is at or below it, and whatever it receives later is after it, so the next export,
  /// `after` it, hands out exactly what arrived since.
  @_spi(Internals) public func exportCursor() throws(StoreError) -> Int64 {
    try withReadTransaction { engine throws(StoreError) in try engine.receivedCursor() }
  }
}
