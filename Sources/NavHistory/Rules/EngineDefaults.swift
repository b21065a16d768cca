/// What every engine starts from unless told otherwise, so that a store file and the collector's
/// database snapshot and cache alike.
package enum EngineDefaults {
  /// Events between two snapshots of a session's state: a rehydration replays at most this many.
  package static let snapshotInterval = 100
  /// Sessions whose current states an engine keeps: 4,096 states, most of a few KiB.
  package static let headCacheCapacity = 4_096
  /// The memory the kept states may take: 64 MiB (`RunningState.memoryWeight`).
  package static let headCacheWeightLimit = 64 * 1024 * 1024
}
