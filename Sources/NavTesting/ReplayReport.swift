import NavCore

/// What a replay that matched the recording did: for a test that wants to assert more than
/// "it passed" (that the fixture still exercises the actions it was taken for, say).
public struct ReplayReport: Sendable, Hashable, CustomStringConvertible {
  /// The session replayed.
  public var session: SessionID
  /// The actions replayed through the app's logic, each of which led where the recording did.
  public var actionsMatched = 0
  /// The changes with no action behind them (the user's gestures, the app's own changes outside
  /// `perform`), applied as recorded.
  public var changesApplied = 0
  /// The lifecycle events with no action behind them, reported to the app as they happened.
  public var lifecycleEvents = 0
  /// The recorded actions skipped by `SessionReplay.resolveUndecodable` (their changes applied
  /// as recorded).
  public var skippedActions: [RecordedCause] = []
  /// The session the start was restored from, when it was.
  public var restoredFrom: SessionLink?
  /// Whether today's app restored the source to the recorded start: `false` when the recording
  /// does not hold the source (a fixture cut from it), or the launch did not restore.
  public var restoreChecked = false
  /// The steps the restore took on the recorded host, each checked legal (0 without a restore).
  public var restoreSteps = 0

  public var description: String {
    var parts = ["\(session): \(actionsMatched) action(s) matched"]
    if changesApplied > 0 { parts.append("\(changesApplied) change(s) without an action applied as recorded") }
    if lifecycleEvents > 0 { parts.append("\(lifecycleEvents) lifecycle event(s)") }
    if !skippedActions.isEmpty { parts.append("\(skippedActions.count) action(s) skipped") }
    if let restoredFrom {
      parts.append(
        "restored from \(restoredFrom) (\(restoreChecked ? "checked" : "not checked: the source is not in the recording"), \(restoreSteps) step(s))"
      )
    }
    return parts.joined(separator: ", ")
  }
}
