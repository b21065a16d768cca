import Foundation
import NavCore
import NavPersistence
import NavTestSupport
import PropertyBased

/// A random session of `TwoTabs`, as a user and the app made it: actions, the user's gestures
/// (a back swipe or a swipe-down, a tab tapped), the app leaving and coming back, and the clock
/// moving on or not between them (so that the same action twice in one millisecond happens).
enum ScriptStep: Sendable, CustomStringConvertible {
  case action(TwoTabs.Action)
  case swipeBack(tab: Int)
  case tapTab(Int)
  case background
  case foreground
  case tick(milliseconds: Int)

  var description: String {
    switch self {
    case .action(let action): "\(action)"
    case .swipeBack(let tab): "swipeBack(\(tab))"
    case .tapTab(let tab): "tapTab(\(tab))"
    case .background: "background"
    case .foreground: "foreground"
    case .tick(let ms): "tick(\(ms))"
    }
  }

  static func random(using rng: inout some RandomNumberGenerator) -> ScriptStep {
    let tab = Int.random(in: 0...1, using: &rng)
    switch Int.random(in: 0..<20, using: &rng) {
    case 0..<5: return .action(.open(tab: tab, item: Int.random(in: 1...9, using: &rng)))
    case 5..<8: return .action(.back(tab: tab))
    case 8..<10:
      return .action(
        .compose(tab: tab, draft: Int.random(in: 1...3, using: &rng), navigation: Bool.random(using: &rng)))
    case 10: return .action(.close(tab: tab))
    case 11: return .action(.backToRoot(tab: tab))
    case 12: return .action(.select(tab))
    case 13: return .action(.notification(item: Int.random(in: 1...9, using: &rng)))
    case 14: return .swipeBack(tab: tab)
    case 15: return .tapTab(tab)
    case 16: return Bool.random(using: &rng) ? .background : .foreground
    default: return .tick(milliseconds: Int.random(in: 1...400, using: &rng))
    }
  }

  static func script(length: ClosedRange<Int>) -> Generator<[ScriptStep], Shrink.None<[ScriptStep]>> {
    Generator { rng in (0..<Int.random(in: length, using: &rng)).map { _ in random(using: &rng) } }
  }
}

/// What recording a script left: the store, the session, and what the model did.
struct RecordedScript {
  var store: SessionStore
  var session: SessionID
  /// The actions that changed the navigation, in order, each with the state it was sent in:
  /// each is one the replay must match.
  var changingActions: [(action: TwoTabs.Action, before: Coordinator<TwoTabs.Screen>)]
}

/// Milliseconds that move only when told: the recorder's clock.
final class TickingTime: Sendable {
  private let now = Protected(Int64(1_800_000_000_000))
  func advance(_ milliseconds: Int) { now.withLock { $0 += Int64(milliseconds) } }
  var timestamp: Timestamp { Timestamp(millisecondsSince1970: now.withLock { $0 }) }
}

extension TwoTabs {
  /// Sends `action` through `model` as the app does: one `perform`, the reducer's change inside.
  @MainActor static func send(_ action: Action, to model: NavigationModel<Screen>, mutation: Mutation? = nil) throws {
    try model.perform(action) { try model.change { try reduce(&$0, action, mutation: mutation) } }
  }

  /// Records `script` through a model into a new store in `folder`.
  @MainActor static func record(
    _ script: [ScriptStep], in folder: TemporaryFolder, session: SessionID,
    start: Coordinator<Screen> = launch, restoredFrom: SessionLink? = nil, store existing: SessionStore? = nil
  ) async throws -> RecordedScript {
    let store = try existing ?? SessionStore(path: folder.path("app.sqlite"))
    let time = TickingTime()
    let recorder = NavigationRecorder<Screen>(
      store: store, session: session, restoredFrom: restoredFrom, now: { time.timestamp })
    let model = NavigationModel(start, recorder: recorder, host: .navigationStack17, failureHandling: .report)
    var changing: [(action: Action, before: Coordinator<Screen>)] = []
    for step in script {
      let before = model.state
      switch step {
      case .action(let action):
        do {
          try send(action, to: model)
          if model.state != before { changing.append((action, before)) }
        } catch {}  // refused: nothing recorded, as in the app
      case .swipeBack(let tab):
        let flow = model.tabs.stack(tab)
        if flow.shownRoutes.count > 1 { flow.shownRoutes.removeLast() }
      case .tapTab(let tab): model.tabs.selection = tab
      case .background: model.appLifecycle(.background)
      case .foreground: model.appLifecycle(.foreground)
      case .tick(let milliseconds): time.advance(milliseconds)
      }
    }
    try await recorder.flush()
    return RecordedScript(store: store, session: session, changingActions: changing)
  }
}
