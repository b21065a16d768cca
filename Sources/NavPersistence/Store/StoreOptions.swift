import NavHistory

/// How a store is opened and how it writes.
public struct StoreOptions: Sendable, Hashable {
  /// What a commit guarantees when the machine loses power.
  public enum Durability: String, Sendable, Hashable, CaseIterable {
    /// WAL with `synchronous=NORMAL`: a commit survives a crash of the process; after a power
    /// loss the last few commits may be lost, but the store is never corrupted.
    case normal
    /// WAL with `synchronous=FULL`: every commit is on disk before the call returns, at the cost
    /// of one fsync per transaction.
    case full
  }

  /// Whether the store may be written.
  public enum Access: Sendable, Hashable {
    /// Read and write; the file (with its schema) is created when missing.
    case readWrite
    /// Read only; the file must exist and be up to date.
    case readOnly
  }

  /// A snapshot of the full state is written after at least this many events of a session, once
  /// replaying them would cost about what reading the last snapshot did (so a large tree is not
  /// written again and again). Rehydrating reads the nearest snapshot and at most this many
  /// events, or about that snapshot's cost in events, after it.
  public var snapshotInterval: Int
  /// What a commit guarantees.
  public var durability: Durability
  /// How long a write waits for another process's lock before failing with `.busy`.
  public var busyTimeout: Duration
  /// Whether the store may be written.
  public var access: Access
  /// A cap on the store's size, in database pages (usually 4 KiB each): writes that would grow
  /// it further fail with `.diskFull` and are rolled back, as on a full disk. `nil`: no cap.
  public var maximumPageCount: Int?

  /// How many sessions' current states the writer keeps, so appending to them does not
  /// rehydrate (at least 2). The bound keeps a store's memory flat however many sessions it
  /// holds; an append to a session not among them reads its nearest snapshot and replays at
  /// most `snapshotInterval` events.
  package var headCacheCapacity: Int
  /// About how much memory, in bytes, the cached states may take in all (`RunningState`'s
  /// weight): however large the trees a store's sessions hold, the cache stays near it.
  package var headCacheWeightLimit = defaultHeadCacheWeightLimit
  /// How many reader connections stay open between reads. More run at once when more threads
  /// read at once; those beyond this close after their read.
  package var idleReaderLimit: Int

  /// The default snapshot interval.
  public static let defaultSnapshotInterval = EngineDefaults.snapshotInterval
  /// The default number of cached session heads: 4,096 states, most of a few KiB.
  package static let defaultHeadCacheCapacity = EngineDefaults.headCacheCapacity
  /// The default memory the cached heads may take: 64 MiB.
  package static let defaultHeadCacheWeightLimit = EngineDefaults.headCacheWeightLimit

  /// Creates options.
  public init(
    snapshotInterval: Int = defaultSnapshotInterval, durability: Durability = .normal,
    busyTimeout: Duration = .seconds(5), access: Access = .readWrite, maximumPageCount: Int? = nil
  ) {
    self.init(
      snapshotInterval: snapshotInterval, durability: durability, busyTimeout: busyTimeout, access: access,
      maximumPageCount: maximumPageCount, headCacheCapacity: Self.defaultHeadCacheCapacity, idleReaderLimit: 4)
  }

  /// Options with the store's internal bounds set too (the tests' small caches).
  package init(
    snapshotInterval: Int = defaultSnapshotInterval, durability: Durability = .normal,
    busyTimeout: Duration = .seconds(5), access: Access = .readWrite, maximumPageCount: Int? = nil,
    headCacheCapacity: Int, idleReaderLimit: Int = 4
  ) {
    self.snapshotInterval = max(1, snapshotInterval)
    self.durability = durability
    self.busyTimeout = busyTimeout
    self.access = access
    self.maximumPageCount = maximumPageCount
    self.headCacheCapacity = max(2, headCacheCapacity)
    self.idleReaderLimit = max(1, idleReaderLimit)
  }
}

extension StoreOptions {
  /// The busy timeout as SQLite takes it: whole milliseconds, from 0 to about 24 days.
  package var busyTimeoutMilliseconds: Int32 {
    Int32(clamping: max(0, busyTimeout.clampedMilliseconds))
  }
}
