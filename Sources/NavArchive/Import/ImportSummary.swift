/// What an import did.
@_spi(Internals) public struct ImportSummary: Hashable, Sendable {
  /// Events appended.
  public var appended: Int = 0
  /// Events already stored with the same content, skipped.
  public var alreadyStored: Int = 0
  /// Transactions committed.
  package var transactions: Int = 0
  /// Sessions that received events.
  public var sessions: Int = 0

  /// Nothing imported yet.
  package init() {}
}
