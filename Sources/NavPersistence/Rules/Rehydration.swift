@_spi(Internals) import NavCore

/// A session's state at a seq, worked out from its latest snapshot at or before it and the
/// events after that snapshot, and then event by event as a history is replayed: the same for
/// every storage engine.
package struct Rehydration {
  private let session: SessionID
  /// The state after the events taken (`nil` before a `start`).
  package private(set) var state: AnyCoordinator?

  /// Goes on from `state`, the session's state after some seq (`nil`: before its first event).
  package init(of session: SessionID, from state: AnyCoordinator?) {
    self.session = session
    self.state = state
  }

  /// Starts from the snapshot at `seq` (its state's stored text), or from nothing when
  /// `snapshot` is `nil` (then `seq` is 0).
  package init(of session: SessionID, snapshotAt seq: Int, snapshot: [UInt8]?) throws(StoreError) {
    self.session = session
    guard let snapshot else { return }
    do {
      state = try WireFormat.decode(AnyCoordinator.self, from: snapshot)
    } catch {
      throw StoreError.unreadableHistory(session: session, seq: seq, .unreadableSnapshot(error))
    }
  }

  /// Applies the next stored event, and returns it decoded.
  @discardableResult
  package mutating func take(_ row: StoredEventRow) throws(StoreError) -> AnyEvent {
    let event = try row.decoded()
    do throws(NavigationError) {
      state = try event.operation.apply(to: state)
    } catch {
      throw StoreError.unreadableHistory(session: session, seq: row.seq, .eventNoLongerApplies(error))
    }
    return event
  }

  /// The state after the events taken.
  package func result() throws(StoreError) -> AnyCoordinator {
    guard let state else { throw StoreError.unreadableHistory(session: session, seq: 1, .noStartEvent) }
    return state
  }
}
