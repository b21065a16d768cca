import NavCore

/// Why a replay stopped: the app's logic took the user somewhere the recording did not go, or
/// the recording cannot be replayed by today's app. Its `description` is the message a failed
/// test prints, under Swift Testing and XCTest alike: the seq, the action, where the trees
/// differ and both subtrees.
public enum ReplayError: Error, Sendable, CustomStringConvertible {
  /// The app's navigation went elsewhere than the recording (the regression a fixture guards).
  case diverged(ReplayDivergence)
  /// A recorded action does not decode as today's `Action` (renamed or removed): map or skip it
  /// with `SessionReplay.resolveUndecodable`.
  case causeDoesNotDecode(seq: Int, action: RecordedCause, reason: String, actionsMatched: Int)
  /// A recorded state holds a screen today's `Screen` does not decode.
  case screenDoesNotDecode(seq: Int, reason: String)
  /// A restored start cannot be played to the screen through legal steps on the recorded host.
  case restoreNotPlayable(session: SessionID, host: HostProfile, reason: String)
  /// The recording could not be read, or does not hold the session asked for.
  case unreadableRecording(path: String, reason: String)
  /// The recording contradicts itself (an event that does not apply to the state before it).
  case inconsistentRecording(seq: Int, reason: String)

  public var description: String {
    switch self {
    case .diverged(let divergence):
      divergence.description
    case .causeDoesNotDecode(let seq, let action, let reason, let matched):
      """
      The recorded action at seq \(seq), \(action), does not decode as today's Action: \(reason).
      \(matched) action(s) matched before it. If the action was renamed, map it to today's; if it \
      was removed, skip it (SessionReplay.resolveUndecodable).
      """
    case .screenDoesNotDecode(let seq, let reason):
      "The recorded state after seq \(seq) holds a screen today's Screen does not decode: \(reason)"
    case .restoreNotPlayable(let session, let host, let reason):
      "The restore that starts \(session) cannot be played on a \(host.rawValue) host: \(reason)"
    case .unreadableRecording(let path, let reason):
      "Cannot read the recording \(path): \(reason)"
    case .inconsistentRecording(let seq, let reason):
      "The recording does not replay at seq \(seq): \(reason)"
    }
  }
}

/// Where the app's logic and the recording parted: the first action after which the app's
/// navigation differs from the recorded one, and how.
public struct ReplayDivergence: Sendable, CustomStringConvertible {
  /// The seq of the last event the action recorded (1 for the start or its restore).
  public var seq: Int
  /// The action replayed, as recorded (or "the restore of ..." for a restored start).
  public var action: String
  /// How many actions the app replayed to the recorded state before this one.
  public var actionsMatched: Int
  /// What differs, in a line: the place in the tree and both sides, or the phase, or the
  /// failure the app's logic reported.
  public var difference: String
  /// The recorded coordinator where the trees differ, printed as `Coordinator.description` does.
  public var recorded: String
  /// The app's coordinator at the same place.
  public var replayed: String

  public var description: String {
    """
    The replay diverged at seq \(seq), after the action \(action) (\(actionsMatched) action(s) matched before it).
    \(difference)
    recorded:
    \(indented(recorded))
    replayed:
    \(indented(replayed))
    """
  }

  private func indented(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
  }
}
