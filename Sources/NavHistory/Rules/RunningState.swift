@_spi(Internals) import NavCore

/// A session's state after its last event as the append rules carry it from one event to the
/// next: the tree, what the wire format's limits count of it, and what was stored since its
/// last snapshot. Each event then costs what it changes, whatever the tree's size: its limits
/// are checked against the measure, and its snapshot decided by the schedule, without a walk of
/// the tree.
///
/// Every engine keeps one per session it appends to, and makes it from the stored rows when it
/// has none (`Rehydration.running()`), with the same values an unbroken run of appends would
/// have reached.
package struct RunningState: Sendable {
  /// The state.
  package var tree: AnyCoordinator
  /// `tree.measure`, kept up to date.
  package var measure: TreeMeasure
  /// What was stored since the last snapshot.
  package var snapshots: SnapshotSchedule

  package init(tree: AnyCoordinator, measure: TreeMeasure, snapshots: SnapshotSchedule) {
    self.tree = tree
    self.measure = measure
    self.snapshots = snapshots
  }
}

/// When a session's next snapshot is due: once at least the store's interval of events were
/// stored since the last one, and replaying them would cost at least what reading that snapshot
/// did: their operations' bytes, and `WorkBudget.unitsPerEvent` for each, as many as the
/// snapshot's own bytes.
///
/// A snapshot saves a replay the events before it, and costs its own bytes. Taking one only once
/// the replay it saves is worth its size keeps the two in balance: a state of 1,000 routes is not
/// written again every 100 pushes (a session's snapshots add up to a small multiple of the lines
/// it was sent: each holds at most the state, which grows by no more than its operations bring,
/// and comes after at least its own size in replay cost), and rehydrating costs about twice
/// reading the snapshot, however the events since it are made (a large state followed by
/// thousands of small events is replayed from a snapshot that many events old, not more).
package struct SnapshotSchedule: Hashable, Sendable {
  /// Events stored since the last snapshot (or since the session began).
  package private(set) var events = 0
  /// The bytes of their operations' stored text.
  package private(set) var bytes = 0
  /// The bytes of the last snapshot (0 before the first).
  package private(set) var lastSnapshotBytes = 0

  package init() {}

  /// Notes the next event, whose operation's stored text is `operationBytes` long.
  package mutating func noteEvent(operationBytes: Int) {
    events += 1
    bytes += operationBytes
  }

  /// Whether a snapshot is due after the events noted, with snapshots at least `interval`
  /// events apart.
  package func isDue(interval: Int) -> Bool {
    events >= interval && bytes + events * WorkBudget.unitsPerEvent >= lastSnapshotBytes
  }

  /// Notes a snapshot of `snapshotBytes` bytes, after the events noted.
  package mutating func noteSnapshot(bytes snapshotBytes: Int) {
    events = 0
    bytes = 0
    lastSnapshotBytes = snapshotBytes
  }
}
