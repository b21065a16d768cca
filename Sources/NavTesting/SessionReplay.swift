import NavCore

/// A recorded session replayed through the app's own navigation logic, compared with the
/// recording after every action: a support ticket turned into a regression test.
///
/// The replay starts where the session started (a restored start is first restored from its
/// source, as today's app restores it, and played on the recorded host in legal steps). Then
/// each recorded action (the events that share a cause and a moment) is decoded as today's
/// `Action` and sent through the app's logic; the user's own changes (a back swipe, a sheet
/// pulled down) are applied as recorded, and lifecycle events reported as lifecycle. After each
/// action the app's navigation must be the recorded one; the first that is not stops the replay
/// with `ReplayError.diverged`, naming the seq, the action, where the trees differ and both
/// subtrees.
///
/// ```swift
/// @Test @MainActor func ticket4121() throws {
///   let recorded = try RecordedSession(contentsOf: fixture("ticket-4121.jsonl"))
///   try SessionReplay(recorded, screens: Screen.self, actions: Action.self)
///     .run(app: { App($0) }, send: { app, action in try app.send(action) })
/// }
/// ```
public struct SessionReplay<Screen: NavigationScreen, Action: Decodable & Sendable> {
  /// The recording replayed.
  public let recorded: RecordedSession
  /// What to do with a recorded action that does not decode as today's `Action`: replay another
  /// in its place, skip it, or fail (the default), by its name or its JSON.
  ///
  /// ```swift
  /// replay.resolveUndecodable = { cause in
  ///   cause.name == "numberOpened" ? .replay(.numberTapped(7)) : .fail
  /// }
  /// ```
  public var resolveUndecodable: (RecordedCause) -> CauseResolution<Action> = { _ in .fail }

  /// A replay of `recorded` as today's `Screen` and `Action` types.
  public init(_ recorded: RecordedSession, screens: Screen.Type = Screen.self, actions: Action.Type = Action.self) {
    self.recorded = recorded
  }

  /// Replays through a `NavigationModel` and the app built on it: `app` builds the app's object
  /// around the model (at the recorded start, on the recorded host, recording nothing), and
  /// `send` sends it one action, as the app does. A failure `send` throws, or the model reports
  /// (`lastFailure`), is a divergence: the recorded action changed the navigation.
  @MainActor
  @discardableResult
  public func run<App>(app: (NavigationModel<Screen>) -> App, send: (App, Action) throws -> Void)
    throws(ReplayError) -> ReplayReport
  {
    var engine = try ReplayEngine<Screen, Action>(recorded, resolve: resolveUndecodable)
    let model = NavigationModel(engine.start, host: engine.host, failureHandling: .report)
    let app = app(model)
    return try engine.run(
      state: { model.state }, phase: { model.phase },
      send: { action in
        do {
          try send(app, action)
        } catch {
          return "the app's logic threw \(error)"
        }
        return model.lastFailure.map { "the app's navigation refused a change: \($0)" }
      },
      adopt: { state in
        do {
          try model.change { $0 = state }
          return nil
        } catch {
          return "\(error)"
        }
      },
      enter: { model.appLifecycle($0) })
  }

  /// Replays through a pure function over the navigation tree, as a reducer is: `reduce` takes
  /// the tree and one action and changes the tree, or throws (a divergence, since the recorded
  /// action changed the navigation).
  @discardableResult
  public func run(reducer reduce: (inout Coordinator<Screen>, Action) throws -> Void) throws(ReplayError)
    -> ReplayReport
  {
    var engine = try ReplayEngine<Screen, Action>(recorded, resolve: resolveUndecodable)
    var state = engine.start
    return try engine.run(
      state: { state }, phase: { nil },
      send: { action in
        do {
          try reduce(&state, action)
          return nil
        } catch {
          return "the reducer threw \(error)"
        }
      },
      adopt: { recorded in
        state = recorded
        return nil
      },
      enter: { _ in })
  }
}
