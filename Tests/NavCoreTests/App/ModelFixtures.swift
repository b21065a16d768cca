import NavCore
import NavTestSupport

/// The screens of the model's tests: an app with tabs hosted by its root screen and flows in
/// sheets.
enum ModelScreen: Codable, Hashable, Sendable {
  case home
  case feed
  case settings
  case detail(Int)
  case section(String)
  case onboarding(Int)
}

/// The app at launch: the root hosts two tabs, each a stack that can push.
let launchState: Coordinator<ModelScreen> = .stack([
  .root(
    .home,
    child: .tabs(
      [.stack([.root(.feed, withNavigation: true)]), .stack([.root(.settings, withNavigation: true)])], selected: 0))
])

/// One state handed to the recorder.
struct RecordedState: Equatable, Sendable {
  var state: Coordinator<ModelScreen>
  var cause: JSONValue?
  var origin: EventOrigin
}

/// A recorder that keeps what it is handed, for the tests to read.
final class StateLog: NavigationRecording, Sendable {
  private let entries = Protected<[RecordedState]>([])
  private let lifecycleEntries = Protected<[(event: LifecycleEvent, cause: JSONValue?)]>([])

  func record(_ state: Coordinator<ModelScreen>, cause: JSONValue?, origin: EventOrigin) {
    entries.withLock { $0.append(RecordedState(state: state, cause: cause, origin: origin)) }
  }

  func record(_ event: LifecycleEvent) {
    lifecycleEntries.withLock { $0.append((event, nil)) }
  }

  func record(_ event: LifecycleEvent, cause: JSONValue?) {
    lifecycleEntries.withLock { $0.append((event, cause)) }
  }

  /// The lifecycle events handed over, in order.
  var lifecycle: [LifecycleEvent] { lifecycleEntries.withLock { $0.map(\.event) } }

  /// The causes the lifecycle events were handed over with, in order.
  var lifecycleCauses: [JSONValue?] { lifecycleEntries.withLock { $0.map(\.cause) } }

  var all: [RecordedState] { entries.withLock { $0 } }
  var states: [Coordinator<ModelScreen>] { all.map(\.state) }
}

/// A model over `state` whose failures are only reported, with its recorder and a log of every
/// state it showed.
@MainActor
func makeModel(
  _ state: Coordinator<ModelScreen> = launchState, launchingFrom: Coordinator<ModelScreen>? = nil
) -> (NavigationModel<ModelScreen>, StateLog, ShownLog) {
  let log = StateLog()
  let shownLog = ShownLog()
  let model = NavigationModel(
    state, launchingFrom: launchingFrom, recorder: log, delayMilliseconds: 10, clock: ImmediateTestClock(),
    failureHandling: .report)
  shownLog.states.append(model.shown)
  model.onShow = { shownLog.states.append($0) }
  return (model, log, shownLog)
}

/// Every state a model showed, its first one included.
@MainActor
final class ShownLog {
  var states: [Coordinator<ModelScreen>] = []
}
