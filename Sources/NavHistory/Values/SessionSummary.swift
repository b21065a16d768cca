import NavCore

/// A session as `navstore sessions` lists it.
public struct SessionSummary: Hashable, Sendable {
  /// The session's id.
  public var id: SessionID
  /// How many events it has (its last seq).
  public var eventCount: Int
  /// When its first event happened, as the device said.
  public var firstAt: Timestamp?
  /// When its last event happened, as the device said: earlier than `firstAt` when the device's
  /// clock went back far enough (`clockJumps`).
  public var lastAt: Timestamp?
  /// Routes on the visible path of its current state.
  package var depth: Int
  /// The session this one continues, when it began by restoring it (its `start` event's
  /// `restoredFrom`).
  public var restoredFrom: SessionLink?
  /// How long it lasted, counting only the clock going forward: the sum of the times between
  /// consecutive events, each at least 0. `lastAt - firstAt` when the clock never went back;
  /// never negative (and held at 2^53 - 1, which only a hand-made history reaches).
  package var durationMilliseconds: Int64 = 0
  /// The part of `durationMilliseconds` the app spent in the foreground (between its
  /// `background` and `foreground` events): the sum of its screen views' durations in the
  /// exports. Equal to `durationMilliseconds` for a session that never left the foreground.
  package var foregroundMilliseconds: Int64 = 0
  /// Where it is in the app's lifecycle after its last event: `.ended` once it recorded `end`.
  package var phase: SessionPhase = .foreground
  /// How many of its events are earlier than the event before them (the device's clock went
  /// back: NTP, or the user setting it). Their times are kept as the device gave them.
  package var clockJumps: Int = 0
  /// What the session runs on, as its `start` said (`nil` when it said nothing).
  public var context: SessionContext?
  /// What the launch that began it did, as its `start` said (`nil`: it did not say, as a
  /// session recorded without `SessionStore.launch` or before launches were recorded).
  package var launch: LaunchRecord.Outcome?
  /// Why the launch did it (`fresh` and `declined` launches, and a restore of the roots).
  package var launchReason: String?
  /// How many routes the launch's restore left out (its start's `launch.dropped`): support's
  /// filter for the sessions an update's restore lost routes in.
  package var droppedRoutes: Int = 0
  /// The highest number under which the store received one of its events or moved its journey,
  /// in the order it received them (on PostgreSQL, the id of the transaction that did it): an
  /// incremental export hands out the session's row again after a cursor below it.
  package var received: Int64 = 0
  /// The first session of the chain of restores it continues, as far back as the store knows
  /// it (`SessionJourney`): the session itself when it restores none.
  package var journey: String?
}
