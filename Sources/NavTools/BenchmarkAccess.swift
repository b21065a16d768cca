@_spi(Internals) import NavCore
@_spi(Internals) import NavHistory
@_spi(Internals) import NavPersistence

/// The calls below the public API that the benchmarks time, or build their workloads with.
///
/// The benchmarks are a package of their own (release flags, anchors of their own), which
/// `package` access does not reach. These forward to the package calls of the modules an app
/// links, so that an app's build carries none of them as public symbols.
@_spi(Internals) public enum BenchmarkAccess {
  /// The chain value before a session's first event.
  public static var genesisHash: [UInt8] { HashChain.genesis }

  /// The chain value after `event`, following `previous`.
  public static func chainHash(of event: AnyEvent, after previous: [UInt8]) throws(WireFormatError) -> [UInt8] {
    try HashChain.hash(of: event, after: previous)
  }

  /// The state after `operation`, from `state` (`nil` before a session's `start`).
  public static func state(after operation: AnyOperation, from state: AnyCoordinator?) throws(NavigationError)
    -> AnyCoordinator
  {
    try operation.apply(to: state)
  }

  /// How many screens stand visible on one another in `state` (the depth a row stores).
  public static func visibleDepth(of state: AnyCoordinator) -> Int { state.visibleDepth }

  /// Appends `events` in one transaction through the store's batch pipeline (see
  /// `SessionStore.append(contentsOf:)`): what the recorder's batches and an import use.
  public static func appendBatch(_ events: [AnyEvent], to store: SessionStore) throws(StoreError) {
    _ = try store.append(contentsOf: events)
  }

  /// Replays the session's events from `from` to `to`, rehydrating the state after each, and
  /// throws the result away: the work behind `navstore history`'s states.
  public static func replay(_ session: SessionID, in store: SessionStore, from: Int = 1, to: Int? = nil)
    throws(StoreError)
  {
    try store.replayHistory(of: session, from: from, to: to) { _, _ in }
  }
}
