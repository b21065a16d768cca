import Observation

/// The app's navigation in one object: one call changes it, records it and shows it.
///
/// The model owns the navigation state (`state`, where the app is) and what the host displays
/// (`shown`, which SwiftUI binds to). Every change, made through the model or through a flow
/// handle (`stack`, `tabs`, and the child flows they hand out), is checked, handed once to the
/// recorder and played to the screen in legal steps by a `NavigationPlayer`. What the user does
/// on screen (a back swipe, a sheet pulled down, a tab tapped) comes back through the flows'
/// `shownRoutes` and `selection`, and is recorded with `origin: .user`.
///
/// ```swift
/// let model = NavigationModel(restored.state, launchingFrom: restored.state.launchState, recorder: recorder)
/// let feed = model.stack.tabs(hostedBy: 0).stack(0)
/// model.perform(Action.numberTapped(7)) { feed.push(.numberDetail(7)) }
/// ```
///
/// Operations that cannot be done (popping a sheet, going back past the root) change nothing,
/// as FlowStacks' do: they are reported in `lastFailure` and `failures`, and stop a debug build
/// when `failureHandling` says so. Code that wants to handle them itself uses the throwing
/// `change` forms. <doc:AppModel> tells how flows are found and what the host binds to.
@MainActor
@Observable
public final class NavigationModel<AppScreen: NavigationScreen> {
  /// Where the app is: the state after the last change. Recorded, and played to the screen.
  public private(set) var state: Coordinator<AppScreen>
  /// What the host shows now. It differs from `state` only while a change is being played in
  /// steps (a restore, a deep link).
  public private(set) var shown: Coordinator<AppScreen>
  /// Why the last call through the model or a flow (an operation, `perform`, `change`, `go`)
  /// failed, or `nil` when it succeeded: for an app that shows such things, or a test. Each call
  /// clears it first; the user's gestures written back by the host leave it as it is.
  public private(set) var lastFailure: NavigationModelError?
  /// Where the session is in the app's lifecycle, as the app reported it (`appLifecycle`).
  public private(set) var phase: SessionPhase = .foreground

  /// Every refused change, as it happens. Holds the newest 64 when nobody reads it.
  public let failures: AsyncStream<NavigationModelError>
  /// What an impossible operation does besides being reported.
  package let failureHandling: FailureHandling

  private let failureSink: AsyncStream<NavigationModelError>.Continuation
  private var recorder: (any NavigationRecording<AppScreen>)?
  private let player: NavigationPlayer<AppScreen>
  /// Called with every state shown, in order, after `shown` changed: for a host that does not
  /// observe the model (UIKit's navigation controllers, a log of the steps). SwiftUI needs
  /// nothing of it. Give it to `init` to see the steps a restore shows at once, during `init`.
  @ObservationIgnored public var onShow: (@MainActor (Coordinator<AppScreen>) -> Void)?
  /// The host screens `updateScreen` gave a new value, for the flow handles made before.
  @ObservationIgnored private(set) var renames = HostRenames()
  /// The action under way in `perform`, whose changes are gathered into one.
  @ObservationIgnored private var action: PendingAction?

  /// The changes of one `perform`, applied to a copy of the state until it ends, and the
  /// lifecycle events reported inside it, recorded after the change with its cause.
  private struct PendingAction {
    var working: Coordinator<AppScreen>
    var lifecycle: [LifecycleEvent] = []
    var failed = false
  }

  /// What an impossible operation does besides being reported in `lastFailure` and `failures`.
  public enum FailureHandling: Sendable {
    /// Stops a debug build with an assertion, as FlowStacks does; a release build goes on.
    case assertInDebugBuilds
    /// Only reports: for tests, and for apps that watch `failures` themselves.
    case report
  }

  /// A model at `state`, recorded by `recorder` (which gets `state` at once, with `cause`: the
  /// app's launch action, any `Encodable`, as `perform` takes).
  ///
  /// The host starts out showing `launchingFrom` when given, and the model plays the steps from
  /// there to `state`: how a restored session is shown (`restored.state.launchState`). `host`,
  /// `delayMilliseconds` and `clock` are the player's (see `NavigationPlayer`). `onShow` is
  /// called with every state shown after `launchingFrom` (or `state`), the steps played during
  /// `init` included.
  ///
  /// A launch that opens something (a notification, a URL, a shortcut) passes it as `opening`:
  /// its change is recorded after the start, with its action as the cause, and the host is
  /// taken from `launchingFrom` to where the link lands in one plan, so the restored screens
  /// the link covers are never shown on their way.
  ///
  /// ```swift
  /// let model = NavigationModel(
  ///   launch.state(or: initialNavigation), launchingFrom: launch.state?.launchState, recorder: recorder,
  ///   opening: DeepLink(Action.notificationOpened(number: 9)) { model in
  ///     model.stack.dismissAll()
  ///     model.stack.tabs(hostedBy: 0).stack(0).push(.numberDetail(number: 9))
  ///   })
  /// ```
  public init<C: Clock<Duration>>(
    _ state: Coordinator<AppScreen>, launchingFrom launchState: Coordinator<AppScreen>? = nil,
    recorder: (any NavigationRecording<AppScreen>)? = nil, cause: some Encodable = JSONValue?.none,
    host: HostProfile = .default,
    delayMilliseconds: Int = StepPlan<AppScreen>.defaultDelayMilliseconds, clock: C = ContinuousClock(),
    failureHandling: FailureHandling = .assertInDebugBuilds,
    onShow: (@MainActor (Coordinator<AppScreen>) -> Void)? = nil,
    opening link: DeepLink<AppScreen>? = nil
  ) {
    let shown = launchState ?? state
    let relay = ShownRelay<AppScreen>()
    self.state = state
    self.shown = shown
    self.recorder = recorder
    self.failureHandling = failureHandling
    self.onShow = onShow
    (failures, failureSink) = AsyncStream.makeStream(
      of: NavigationModelError.self, bufferingPolicy: .bufferingNewest(64))
    player = NavigationPlayer(shown, host: host, delayMilliseconds: delayMilliseconds, clock: clock) {
      relay.model?.show($0)
    }
    relay.model = self
    (recorder as? any HostProfileRecording)?.recordHost(host)
    recorder?.record(state, cause: encodedCause(cause), origin: .app)
    if let link {
      // Before anything is played: the link's change plans from what the host shows now, so
      // the restore and the link are one plan.
      let launched = self.state
      gathering(cause: encodedCause(link.action), origin: .app) { link.change(self) }
      if self.state != launched { return }
    }
    if shown != state {
      do {
        try player.go(to: state)
      } catch {
        // The restore cannot be played: show the state at once rather than nothing.
        player.adopt(state)
        show(state)
        report(.unplayable(error))
      }
    }
  }

  deinit {
    failureSink.finish()
  }

  /// Whether a change is still being played to the screen.
  public var isPlaying: Bool {
    _ = shown  // observed for the caller: a plan ends by showing its last step
    return player.isPlaying
  }

  /// Returns once what is shown is `state`.
  public func settled() async {
    await player.settled()
  }

  // MARK: The top flow

  /// The top coordinator as a stack flow (fails as gone when the top is tabs).
  public var stack: StackFlow<AppScreen> { StackFlow(model: self, anchor: .top(.stack)) }

  /// The top coordinator as a tabs flow (fails as gone when the top is a stack).
  public var tabs: TabsFlow<AppScreen> { TabsFlow(model: self, anchor: .top(.tabs)) }

  // MARK: Changes

  /// Changes the whole state as one change of the app's (no cause unless inside `perform`),
  /// for code that computes the new state itself or wants failures thrown, not reported.
  /// Throws what `body` throws, or a `NavigationModelError` when the result cannot be shown;
  /// either way nothing changes.
  ///
  /// ```swift
  /// try model.change { try $0.apply(.dismissAll()) }
  /// ```
  public func change(_ body: (inout Coordinator<AppScreen>) throws -> Void) throws {
    if action != nil { return try changeAction(body) }
    clearLastFailure()
    var next = state
    try body(&next)
    try commit(next, cause: nil, origin: .app)
  }

  /// Goes to `target` as one change: a deep link, a state built elsewhere.
  public func go(to target: Coordinator<AppScreen>) {
    _ = attempt { $0 = target }
  }

  /// Groups every change `body` makes, through the model or any flow, into one: recorded once
  /// with `action` as its cause (see `JSONValue(encoding:)`), and played to the screen in one
  /// go. When one of the changes fails, or `body` throws, none of them is made.
  ///
  /// ```swift
  /// model.perform(Action.notificationOpened(9)) {
  ///   model.stack.dismissAll()
  ///   tabs.select(0)
  ///   feed.push(.numberDetail(9))
  /// }
  /// ```
  public func perform(_ action: some Encodable, origin: EventOrigin = .app, _ body: () throws -> Void) rethrows {
    try gathering(cause: encodedCause(action), origin: origin, body)
  }

  /// `perform` without a cause.
  public func perform(origin: EventOrigin = .app, _ body: () throws -> Void) rethrows {
    try gathering(cause: nil, origin: origin, body)
  }

  // MARK: What the flows use

  /// The state the flows read: the action's working copy inside `perform`, `state` otherwise.
  var current: Coordinator<AppScreen> { action?.working ?? state }

  /// Applies `change` to the state, then records and shows the result; inside `perform`, to
  /// the action's working copy. A failure is reported, drops the action under way, and changes
  /// nothing. Returns whether the change was made.
  @discardableResult
  func attempt(_ change: (inout Coordinator<AppScreen>) throws(NavigationModelError) -> Void) -> Bool {
    do throws(NavigationModelError) {
      if action != nil {
        try changeAction(change)
      } else {
        clearLastFailure()
        var next = state
        try change(&next)
        try commit(next, cause: nil, origin: .app)
      }
      return true
    } catch {
      action?.failed = true
      report(error)
      return false
    }
  }

  /// Notes that the host screen known as `old` is now `new` (`updateScreen` changed its value),
  /// so that the handles of its flows follow it.
  func hostRenamed(from old: AppScreen, to new: AppScreen) {
    renames.rename(ScreenIdentity(old), to: ScreenIdentity(new))
    renames.prune(keepingHostsOf: current)
  }

  /// A change the user made on screen: the host shows the result of `change` already. While a
  /// change is still being played (a restore, a deep link), the gesture applies to where the app
  /// is going too (`ahead`, by default the same change), and the rest of the plan goes on from
  /// what the user made of the screen: a tab tapped mid-restore does not cost the restore of the
  /// other tabs. When it cannot apply there, the screen as the user left it is where the app is.
  func hostDidChange(
    _ change: (inout Coordinator<AppScreen>) throws(NavigationModelError) -> Void,
    ahead: ((inout Coordinator<AppScreen>) throws(NavigationModelError) -> Void)? = nil
  ) {
    var next = shown
    do {
      try change(&next)
    } catch {
      // A host writing back to a flow it is taking down (a sheet's stack as the sheet goes) is
      // not a failure: the change that removed the flow is recorded already.
      if case .flowGone = error { return }
      report(error)
      return
    }
    guard next != shown else { return }
    var goal = next
    if state != shown {
      var going = state
      do throws(NavigationModelError) {
        if let ahead { try ahead(&going) } else { try change(&going) }
        goal = going
      } catch {}
    }
    player.adopt(next)
    show(next)
    if goal != next {
      do {
        try player.go(to: goal)
      } catch {
        goal = next
      }
    }
    state = goal
    record(goal, cause: nil, origin: .user)
  }

  /// Shows `state`: a step of the player's, or a change the host made itself.
  fileprivate func show(_ state: Coordinator<AppScreen>) {
    shown = state
    onShow?(state)
  }

  /// A new call begins: the last one's failure no longer describes it. (Not written when it is
  /// `nil` already, so that views reading it are not invalidated at every call.)
  private func clearLastFailure() {
    if lastFailure != nil { lastFailure = nil }
  }

  /// Reports a refused change, and stops a debug build when asked to.
  func report(_ failure: NavigationModelError) {
    lastFailure = failure
    failureSink.yield(failure)
    if failureHandling == .assertInDebugBuilds {
      assertionFailure("NavigationModel: \(failure)")
    }
  }

  // MARK: Inside

  private func gathering(cause: JSONValue?, origin: EventOrigin, _ body: () throws -> Void) rethrows {
    // A perform inside another joins it: the outer one's cause describes the whole action.
    guard action == nil else { return try body() }
    clearLastFailure()
    action = PendingAction(working: state)
    do {
      try body()
    } catch {
      action = nil
      throw error
    }
    let finished = action
    action = nil
    guard let finished, !finished.failed else { return }
    do throws(NavigationModelError) {
      try commit(finished.working, cause: cause, origin: origin)
    } catch {
      report(error)
      return
    }
    for event in finished.lifecycle { enter(event, cause: cause) }
  }

  /// `action` as JSON, for a cause; `nil` for no action (`nil`, JSON's `null`), and when it
  /// does not encode, which is reported.
  private func encodedCause(_ action: some Encodable) -> JSONValue? {
    do {
      return try JSONValue.cause(encoding: action)
    } catch {
      report(.causeNotEncodable(error))
      return nil
    }
  }

  /// Applies `change` to the working copy of the action under way; a failure leaves it as it was.
  private func changeAction<Failure: Error>(_ change: (inout Coordinator<AppScreen>) throws(Failure) -> Void)
    throws(Failure)
  {
    guard var working = action?.working else { return }
    try change(&working)
    action?.working = working
  }

  /// Shows `next` and records it; an unplayable state changes nothing.
  private func commit(_ next: Coordinator<AppScreen>, cause: JSONValue?, origin: EventOrigin)
    throws(NavigationModelError)
  {
    guard next != state else { return }
    do {
      try player.go(to: next)
    } catch {
      throw .unplayable(error)
    }
    state = next
    record(next, cause: cause, origin: origin)
  }

  /// Hands a state to the recorder, unless the session has ended.
  private func record(_ state: Coordinator<AppScreen>, cause: JSONValue?, origin: EventOrigin) {
    guard phase != .ended else { return }
    recorder?.record(state, cause: cause, origin: origin)
  }

  /// Reports what happened to the app, for the recorder to keep: it went to the background,
  /// came back, or ended the session. Screen views count time only in the foreground, so this is
  /// what gives the screen the user leaves the app on its time.
  ///
  /// Reporting the phase the model is already in does nothing, so the host may pass every
  /// change of its scene's phase (`.background` as `.background`, `.active` as `.foreground`).
  /// Inside `perform`, the event is recorded after the action's change, with its cause, and not
  /// at all when the action fails: `perform(Action.signOutTapped) { ...; model.appLifecycle(.end(reason:
  /// "signedOut")) }` keeps why the session ended. After `.end`, the model goes on changing and
  /// showing its state but records nothing until `startSession` gives it the next session.
  public func appLifecycle(_ event: LifecycleEvent) {
    if action != nil {
      action?.lifecycle.append(event)
    } else {
      enter(event, cause: nil)
    }
  }

  /// Starts recording a new session on this model, with `recorder`: after a sign-out and a
  /// sign-in, say. The views and flow handles bound to the model stay as they are. The session
  /// being recorded is ended first, with `endReason` and `cause`, unless it has ended already (a
  /// sign-out's `end`); `recorder` then gets the state as it is now, with `cause`, as the new
  /// session's start, and every change after it. Inside `perform`, the action's change goes to
  /// the new session.
  ///
  /// ```swift
  /// let next = NavigationRecorder<Screen>(store: store, session: try SessionID(UUID().uuidString))
  /// model.startSession(recordingWith: next, cause: Action.signedIn)
  /// ```
  public func startSession(
    recordingWith recorder: (any NavigationRecording<AppScreen>)?, cause: some Encodable = JSONValue?.none,
    endReason: String = "newSession"
  ) {
    let cause = encodedCause(cause)
    enter(.end(reason: endReason), cause: cause)
    self.recorder = recorder
    phase = .foreground
    (recorder as? any HostProfileRecording)?.recordHost(player.host)
    recorder?.record(state, cause: cause, origin: .app)
  }

  /// Moves the session to `event`'s phase and records it, unless the session is already there
  /// or has ended.
  private func enter(_ event: LifecycleEvent, cause: JSONValue?) {
    guard phase != .ended, event.phase != phase else { return }
    phase = event.phase
    recorder?.record(event, cause: cause)
  }
}

/// Lets the player, made before the model is, reach the model once it exists.
@MainActor
private final class ShownRelay<AppScreen: NavigationScreen> {
  weak var model: NavigationModel<AppScreen>?
}
