import NavCore

/// A change (or a batch of changes) a recorder could not write: the app is told, never crashed.
///
/// After a failure the recorder reads the session's last stored state again and diffs the
/// next state it is handed against that, so the log stays a faithful account of what was
/// shown, minus the changes named here.
public struct RecordingFailure: Error, Hashable, Sendable, CustomStringConvertible {
  /// The session being recorded.
  public var session: SessionID
  /// What went wrong: a change the model refuses or `diff` cannot express, a full disk, a store
  /// locked past its busy timeout, a read-only store, another writer on the same session.
  public var error: StoreError
  /// How many of the states handed to `record` are missing from the log because of it.
  public var unrecordedChanges: Int

  /// Creates a failure report.
  package init(session: SessionID, error: StoreError, unrecordedChanges: Int) {
    self.session = session
    self.error = error
    self.unrecordedChanges = unrecordedChanges
  }

  public var description: String {
    // A screen kept as not storable: every change was recorded.
    guard unrecordedChanges > 0 else { return "recording session '\(session)': \(error)" }
    let changes = unrecordedChanges == 1 ? "1 change" : "\(unrecordedChanges) changes"
    return "recording session '\(session)': \(changes) not recorded: \(error)"
  }
}
