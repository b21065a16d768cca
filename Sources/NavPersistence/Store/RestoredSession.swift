import NavCore

/// A session's state decoded into the app's screen type: what an app shows at launch.
public struct RestoredSession<AppScreen: NavigationScreen>: Hashable, Sendable {
  /// The session restored.
  public var session: SessionID
  /// The seq the state is at (the session's last by default).
  public var seq: Int
  /// The state to show: the stored state minus the routes whose screens no longer decode.
  public var state: Coordinator<AppScreen>
  /// The routes left out because their screens no longer decode (see `RestorePolicy`); empty
  /// when the app's screen type reads everything.
  public var dropped: [DroppedRoute]

  /// Where this state came from, for the new session's `start` (`restoredFrom`).
  public var link: SessionLink { SessionLink(session: session, seq: seq) }
}
