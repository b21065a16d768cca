/// Something that keeps every state the app's navigation goes through: what a
/// `NavigationModel` hands each change to.
///
/// NavPersistence's `NavigationRecorder` is the one apps use; the protocol lives here so that
/// the model, which knows nothing of storage, can drive it, and so that previews and tests can
/// hand the model a recorder of their own. `record` is called on the main actor after every
/// change, and must return at once.
public protocol NavigationRecording<AppScreen>: Sendable {
  /// The app's screen type.
  associatedtype AppScreen: NavigationScreen

  /// Keeps `state`, the navigation after a change; `cause` is the app's action behind it and
  /// `origin` says whether the app or the user (a gesture the host reported) made it.
  func record(_ state: Coordinator<AppScreen>, cause: JSONValue?, origin: EventOrigin)

  /// Keeps what happened to the app (it went to the background, came back, or ended the
  /// session), in order with the states around it. Called on the main actor; must return at
  /// once. Reporting the phase the session is already in records nothing.
  func record(_ event: LifecycleEvent)

  /// Keeps a lifecycle event with the app's action behind it (a sign-out's `end`, reported
  /// inside `perform`). A recorder that keeps no causes need not implement it: by default the
  /// event is kept without one.
  func record(_ event: LifecycleEvent, cause: JSONValue?)
}

extension NavigationRecording {
  /// Keeps the event without its cause.
  public func record(_ event: LifecycleEvent, cause: JSONValue?) {
    record(event)
  }
}

/// A recorder that keeps, in the session's context, the host profile the model plays its
/// steps for, so that a replay of the session plans as the app did. The model tells it before
/// it hands over a session's first state.
package protocol HostProfileRecording {
  /// Notes the host profile of the model that records through it.
  func recordHost(_ host: HostProfile)
}
