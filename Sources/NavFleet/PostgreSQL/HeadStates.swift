import NavCore
import NavPersistence
import Synchronization

/// The states of sessions after their last events, as this process last wrote or read them: an
/// upload continues a session from here, without reading its snapshot and later events, when the
/// session's row (read under the session's lock) still has the same count and chain value.
/// Another collector's write changes the row, and the entry is then ignored and replaced.
final class HeadStates: Sendable {
  struct Key: Hashable {
    let app: AppName
    let session: SessionID
  }

  struct Entry {
    let count: Int
    let hash: [UInt8]
    let state: AnyCoordinator
  }

  private let entries = Mutex<[Key: Entry]>([:])
  private let capacity: Int

  /// A cache of at most `capacity` sessions (past it, it starts again empty: the sessions in
  /// use come back with their next upload).
  init(capacity: Int) { self.capacity = capacity }

  /// The state after `totals`' last event of the session, if this process knows it.
  func state(app: AppName, session: SessionID, totals: SessionTotals) -> AnyCoordinator? {
    entries.withLock { entries in
      guard let entry = entries[Key(app: app, session: session)], entry.count == totals.count,
        entry.hash == totals.headHash
      else { return nil }
      return entry.state
    }
  }

  /// Notes the state after the session's last event, once it is committed.
  func note(app: AppName, session: SessionID, totals: SessionTotals, state: AnyCoordinator) {
    entries.withLock { entries in
      if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
      entries[Key(app: app, session: session)] = Entry(count: totals.count, hash: totals.headHash, state: state)
    }
  }
}
