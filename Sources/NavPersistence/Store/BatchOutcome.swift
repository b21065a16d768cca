import NavCore

/// What `SessionStore.append(contentsOf:)` did: every event as stored, with its seq and hash,
/// and which ones were already stored.
///
/// Unlike a single append's `AppendOutcome`, it carries no state per event: a batch of
/// thousands would hold thousands of states, and holding each one would make the store copy
/// the session's routes at every step. Ask `state(of:)` for the state after the batch.
package struct BatchOutcome: Hashable, Sendable {
  /// The events, in the order given, as stored (a skipped duplicate as it was already stored).
  package var events: [AnyEvent] = []
  /// The positions in the batch (from 0) of the events that were already stored with the same
  /// content, and so were skipped.
  package var alreadyStoredPositions: [Int] = []

  /// How many events were already stored, and skipped.
  package var alreadyStored: Int { alreadyStoredPositions.count }
}
