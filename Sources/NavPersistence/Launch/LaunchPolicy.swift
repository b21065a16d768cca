import NavCore

/// What a launch may restore: the app's rules for bringing the user back where they were.
///
/// Apple's own state restoration throws the saved state away when the app crashed while
/// restoring it, and many apps start fresh after a long absence. `SessionStore.launch(as:policy:)`
/// applies these rules to the latest session:
/// - a session the user ended on purpose (`endSession`) is never restored;
/// - a session last active longer ago than `maximumAge` starts fresh;
/// - after a launch that restored and then did not settle (it crashed, or was killed, while
///   playing the restore or within `stableFor` after it), the next launch restores only the
///   roots of the state (every stack cut back to its root, the tabs as they were); after two
///   such launches in a row, it starts fresh. A fresh start, or a confirmed restore, resets
///   the count.
public struct LaunchPolicy: Hashable, Sendable {
  /// A session last active longer ago than this starts fresh; `nil` restores any age.
  public var maximumAge: Duration?
  /// How long the app must stay up once the restore has played for the restore to count as
  /// a success (see `SessionStore.confirm(_:once:)`).
  public var stableFor: Duration
  /// What restoring does with stored screens the app can no longer decode.
  public var decoding: RestorePolicy

  /// A policy; by default any age is restored, a restore is confirmed 3 seconds after it has
  /// played, and screens that no longer decode are dropped.
  public init(
    maximumAge: Duration? = nil, stableFor: Duration = .seconds(3), decoding: RestorePolicy = .dropUndecodable
  ) {
    self.maximumAge = maximumAge
    self.stableFor = stableFor
    self.decoding = decoding
  }
}
