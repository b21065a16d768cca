@_spi(Internals) import NavCore

/// One moment of a session as the event-shaped exports send it (Segment calls, OpenTelemetry
/// log records): the session began, the user began a visit of a screen, the app left or came
/// back, the session ended. Each is written once, at the moment it happened, so a pipeline that
/// forwards them never sends one again with other values.
package struct NavigationRecord: Hashable, Sendable {
  /// What happened.
  package enum Kind: String, Hashable, Sendable {
    /// The session's first event.
    case sessionStart
    /// A visit of a screen began: the user saw it, after a change or on the app's return when
    /// it was brought on top in the background.
    case screen
    /// The app went to the background.
    case background
    /// The app came back to the foreground.
    case foreground
    /// The session ended (its `end` event).
    case sessionEnd
  }

  /// What a `screen` record says of the visit it begins.
  package struct Visit: Hashable, Sendable {
    /// The id of the visit's first view, as `screen-views` gives it (`view_id`, `visit_id`).
    package var id: String
    /// How the user arrived.
    package var arrival: ViewArrival
    /// How the screen's own route shows it (`root`, `push`, `sheet`, `cover`).
    package var presentation: String?
    /// Which tab the screen is in.
    package var placement: ViewPlacement
    /// The screen's parameters apart from its name (canonical JSON, redacted), or `nil`.
    package var parameters: String?
    /// Whether the app put the user there, restoring another session.
    package var restored: Bool
    /// The name of the app's action that made the change, if it gave one.
    package var causeAction: String?
    /// That action (canonical JSON, redacted), or `nil`.
    package var cause: String?
    /// Who made the change: the user's gesture, or the app.
    package var origin: EventOrigin
    /// The screen the user saw before this visit, if any.
    package var previous: VisibleScreen?
    /// The time in the foreground of the visit before this one (all its views), if any.
    package var previousMilliseconds: Int64?
  }

  /// What happened.
  package var kind: Kind
  /// The session it happened in.
  package var session: SessionID
  /// The seq of the event that made it (a change's last).
  package var seq: Int
  /// When, by the device's clock.
  package var at: Timestamp
  /// The highest number under which the store received the session's events up to it.
  package var received: Int64
  /// The first session of the chain of restores the session continues.
  package var journey: String
  /// The session this one continues, when it began by restoring one.
  package var restoredFrom: SessionID?
  /// What the session ran on, as its start gave it (without the user id when payloads are
  /// left out).
  package var context: SessionContext?
  /// The screen on top: the one the visit is of, or the one the app left, came back to or
  /// ended on (`nil` for a session's start, or when nothing is on top).
  package var screen: VisibleScreen?
  /// For `screen`, the visit it begins.
  package var visit: Visit?
  /// For `background` and `sessionEnd`, the time in the foreground of the visit on top so far.
  package var visitMilliseconds: Int64?
}
