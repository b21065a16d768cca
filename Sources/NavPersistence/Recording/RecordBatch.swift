import NavCore

/// One state or lifecycle event handed to a recorder, with what the app said about it.
struct RecordedChange: Sendable {
  /// What was handed over.
  enum Content: Sendable {
    /// The navigation's state after a change.
    case state(AnyCoordinator)
    /// What happened to the app.
    case lifecycle(LifecycleEvent)
  }

  var content: Content
  var at: Timestamp
  var origin: EventOrigin
  var cause: JSONValue?
}

/// What a recorder writes into its session's `start`, when the session is new.
struct RecordedStart: Sendable {
  /// The session (and seq) the session continues.
  var link: SessionLink?
  /// What the session runs on.
  var context: SessionContext?
  /// What the launch that began the session did.
  var launch: LaunchRecord?
}

/// What the recorder knows of its session between writes: the last state it recorded and
/// that state's seq. `nil` when it must be read from the store (at first, and after a failure).
struct RecordedHead: Sendable {
  var state: AnyCoordinator
  var seq: Int
  var phase: SessionPhase
}

/// The outcome of writing one batch of changes.
struct RecordBatchOutcome: Sendable {
  /// The session's head after the batch.
  var head: RecordedHead?
  /// Why each skipped change (one `diff` cannot express) was skipped; the others were written.
  var skipped: [StoreError]
}
