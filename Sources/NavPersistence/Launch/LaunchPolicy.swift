import NavCore

/// What a launch may restore: the app's rules for bringing the user back where they were.
///
/// Apple's own state restoration throws the saved state away when the app crashed while
/// restoring it, and many apps start fresh after a long absence. `SessionStore.launch(as:policy:)`
/// applies these rules to the latest session:
/// - a session the user ended on purpose (`endSession`) is never restored;
/// - a session last active longer ago than `maximumAge` starts fresh;
/// - after a launch that restored and then did not settle (the process died, killed or
///   crashed, while playing the restore or within `stableFor` after it, without going to the
///   background or ending its session first), the next launch restores only the roots of the
///   state (every stack cut back to its root, the tabs as they were); after two such launches
///   in a row, it starts fresh. A fresh start, a declined restore, or one that settled, resets
///   the count;
/// - a launch that opens something (a notification, a URL, a shortcut) restores beneath it
///   or declines the restore, as `linkedLaunches` says.
public struct LaunchPolicy: Hashable, Sendable {
  /// A session last active longer ago than this starts fresh; `nil` restores any age.
  public var maximumAge: Duration?
  /// How long the app must stay up once the restore has played for the restore to count as
  /// a success (see `SessionStore.confirm(_:once:)`). Going to the background or ending the
  /// session settles it sooner: the user left on purpose.
  public var stableFor: Duration
  /// What restoring does with stored screens the app can no longer decode.
  public var decoding: RestorePolicy
  /// What a launch that opens something (`SessionStore.launch(as:policy:opening:)`) does with
  /// the restore.
  public var linkedLaunches: LinkedLaunchRule

  /// A policy; by default any age is restored, a restore is confirmed 3 seconds after it has
  /// played, screens that no longer decode are dropped, and a launch that opens a link restores
  /// beneath it.
  public init(
    maximumAge: Duration? = nil, stableFor: Duration = .seconds(3), decoding: RestorePolicy = .dropUndecodable,
    linkedLaunches: LinkedLaunchRule = .restoreBeneath
  ) {
    self.maximumAge = maximumAge
    self.stableFor = stableFor
    self.decoding = decoding
    self.linkedLaunches = linkedLaunches
  }
}

/// Who wins when a launch opens something (a notification, a URL, a shortcut) and there is a
/// session to restore.
public enum LinkedLaunchRule: Hashable, Sendable {
  /// The restore, then the link on top of it, shown as one plan (see `NavigationModel`'s
  /// `opening:`): the user lands on the link, and going back leads where they were.
  case restoreBeneath
  /// The link alone: the restore is declined, with the launch's word for what it opened as
  /// the reason, and the app starts from its own launch state.
  case declineRestore
}
