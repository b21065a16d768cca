@_spi(Internals) import NavArchive
import NavPersistence

extension SessionStore {
  /// The cursor an export begun now answers to (its filter's `through`): what the store holds
  /// now is at or below it, and whatever it receives later is after it, so the next export,
  /// `after` it, hands out exactly what arrived since.
  @_spi(Internals) public func exportCursor() throws(StoreError) -> Int64 {
    try withReadTransaction { engine throws(StoreError) in try engine.lastReceivedNumber() }
  }
}
