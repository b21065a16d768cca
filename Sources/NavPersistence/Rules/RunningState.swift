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

/// When a session's next snapshot is due: once at least the store's interval of events, and at
/// least as many bytes of operations as the last snapshot held, were stored since it.
///
/// A snapshot saves a replay the events before it, and costs its own bytes. Taking one only
/// after as many bytes of events as the last one keeps every snapshot within about twice the
/// operations stored since the one before (a state grows by at most what its operations bring),
/// so the snapshots of a session add up to a small multiple of its events, however large its
/// tree: a state of 1,000 routes is not written again every 100 pushes. Rehydrating then reads
/// one snapshot and at most the interval's events or the snapshot's bytes of events after it.
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
    events >= interval && bytes >= lastSnapshotBytes
  }

  /// Notes a snapshot of `snapshotBytes` bytes, after the events noted.
  package mutating func noteSnapshot(bytes snapshotBytes: Int) {
    events = 0
    bytes = 0
    lastSnapshotBytes = snapshotBytes
  }
}
