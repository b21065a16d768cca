#if Collector
import NavCore
@_spi(Internals) import NavHistory
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
    let state: RunningState
  }

  private let entries: Mutex<HeadCache<Key, Entry>>

  /// A cache of at most `capacity` sessions weighing about `weightLimit` bytes (the floor's
  /// `HeadCache`, as a store file's writer keeps its heads).
  init(capacity: Int, weightLimit: Int = EngineDefaults.headCacheWeightLimit) {
    entries = Mutex(HeadCache(capacity: capacity, weightLimit: weightLimit, weight: { $0.state.memoryWeight }))
  }

  /// The running state after `totals`' last event of the session, if this process knows it,
  /// taken out of the cache: the upload edits it in place, with no other reference to copy it
  /// for, and notes the state after it once committed (a failure leaves the session to be read
  /// afresh).
  func state(app: AppName, session: SessionID, totals: SessionTotals) -> RunningState? {
    entries.withLock { entries in
      guard let entry = entries.remove(Key(app: app, session: session)), entry.count == totals.count,
        entry.hash == totals.headHash
      else { return nil }
      return entry.state
    }
  }

  /// Notes the state after the session's last event, once it is committed.
  func note(app: AppName, session: SessionID, totals: SessionTotals, state: RunningState) {
    entries.withLock { entries in
      entries.insert(
        Entry(count: totals.count, hash: totals.headHash, state: state), for: Key(app: app, session: session))
    }
  }
}
#endif
