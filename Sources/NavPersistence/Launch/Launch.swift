import NavCore

/// What this launch shows, decided by `SessionStore.launch(as:policy:)`, and why.
public struct Launch<AppScreen: NavigationScreen>: Hashable, Sendable {
  /// What was decided.
  public var outcome: LaunchOutcome
  /// The state to show, or `nil` for a fresh start (the app shows its own launch state).
  public var state: Coordinator<AppScreen>?
  /// The session and seq restored from, for the new session's `start` (`restoredFrom`);
  /// `nil` for a fresh start.
  public var link: SessionLink?
  /// The routes left out because their screens no longer decode (see `RestorePolicy`).
  public var dropped: [DroppedRoute]
  /// The policy the launch was decided under.
  public var policy: LaunchPolicy
  /// The launch's row in the store, which `confirm` marks.
  let id: Int64

  /// The state to show: the restored one, or `fresh` (the app's launch state).
  public func state(or fresh: Coordinator<AppScreen>) -> Coordinator<AppScreen> {
    state ?? fresh
  }

  /// What the new session's `start` keeps of this launch: the outcome, its reason in a word,
  /// and the routes the restore dropped.
  package var record: LaunchRecord {
    switch outcome {
    case .restored: return LaunchRecord(outcome: .restored, dropped: dropped)
    case .restoredRoots: return LaunchRecord(outcome: .restoredRoots, reason: "unsettledLaunch", dropped: dropped)
    case .startedFresh(let reason): return LaunchRecord(outcome: .startedFresh, reason: reason.word)
    case .declined(let reason): return LaunchRecord(outcome: .declined, reason: reason)
    }
  }
}

/// What a launch decided to show.
public enum LaunchOutcome: Hashable, Sendable, CustomStringConvertible {
  /// The latest session's whole state.
  case restored
  /// Only the roots of the latest session's state (every stack cut back to its root), because
  /// the previous launch restored and did not settle.
  case restoredRoots(unsettledLaunches: Int)
  /// Nothing: the app starts from its own launch state, for the reason given.
  case startedFresh(FreshStartReason)
  /// Nothing, by the app's choice (`SessionStore.decline(_:reason:)`): it opened something else
  /// (a notification, a link, a shortcut) and let the restore go. `reason` is the app's word.
  case declined(reason: String)

  public var description: String {
    switch self {
    case .restored:
      "restored the latest session"
    case .restoredRoots(let count):
      "restored only the roots of the latest session: \(count == 1 ? "the last launch" : "\(count) launches") restored and did not settle"
    case .startedFresh(let reason):
      "started fresh: \(reason)"
    case .declined(let reason):
      "declined the restore: \(reason)"
    }
  }
}

/// Why a launch starts fresh.
public enum FreshStartReason: Hashable, Sendable, CustomStringConvertible {
  /// The store holds no session.
  case noSession
  /// The latest session was last active before the policy's maximum age allows.
  case tooOld(session: SessionID, lastActive: Timestamp, maximumAgeMilliseconds: Int64)
  /// The latest session ended: its `end` event (the recorder's, the model's, or `endSession`'s),
  /// with the reason it gave (empty when none).
  case endedByUser(session: SessionID, at: Timestamp, reason: String)
  /// Launches that restored did not settle, this many in a row.
  case unsettledLaunches(Int)
  /// Not even the root of the latest session decodes into today's screens (or, under a strict
  /// decoding policy, some screen does not).
  case undecodable(session: SessionID, RestoreError)

  /// The reason in one word, as the new session's `start` keeps it (`launch.reason`).
  package var word: String {
    switch self {
    case .noSession: "noSession"
    case .tooOld: "tooOld"
    case .endedByUser: "ended"
    case .unsettledLaunches: "unsettledLaunches"
    case .undecodable: "undecodable"
    }
  }

  public var description: String {
    switch self {
    case .noSession:
      "no session to restore"
    case .tooOld(let session, let lastActive, let maximum):
      "session '\(session)' was last active at \(lastActive), longer ago than the \(DurationWords.exact(milliseconds: maximum)) allowed"
    case .endedByUser(let session, let at, let reason):
      "session '\(session)' ended at \(at)" + (reason.isEmpty ? "" : " (\(reason))")
    case .unsettledLaunches(let count):
      "\(count) launches in a row restored and did not settle"
    case .undecodable(let session, let error):
      "session '\(session)' cannot be restored: \(error)"
    }
  }
}
