import NavCore
import NavTestSupport
import Testing

/// What a host binds to, on the issue's own example: a sheet with navigation over a pushed
/// screen.
@MainActor
@Suite struct HostingTests {
  let state = AnyCoordinator.stack(stack("R+", "↑a", "◻+b", "↑c"))

  @Test func eachLayerHasItsOwnPath() throws {
    let (model, _) = makeUntypedModel(state)
    let base = model.stack.baseLayer
    #expect(base.path == [1], "the sheet's push is not the base stack's")
    #expect(base.base?.screen == "root")
    #expect(base.route(at: 1)?.screen == "a")
    #expect(base.showsSheet && !base.showsCover)
    let sheet = try #require(base.above)
    #expect(sheet.base?.screen == "b")
    #expect(sheet.withNavigation)
    #expect(sheet.path == [3])
    #expect(sheet.above == nil)
    #expect(!sheet.showsSheet)
  }

  @Test func aBackSwipeInTheSheetAndADragDownAreTheUsers() throws {
    let (model, log) = makeUntypedModel(state)
    let base = model.stack.baseLayer
    let sheet = try #require(base.above)
    sheet.path = []
    #expect(model.state == .stack(stack("R+", "↑a", "◻+b")))
    base.showsCover = false  // there is no cover: nothing happens
    #expect(model.state == .stack(stack("R+", "↑a", "◻+b")))
    base.showsSheet = false
    #expect(model.state == .stack(stack("R+", "↑a")))
    #expect(log.all.map(\.origin) == [.app, .user, .user])
    #expect(!sheet.isPresented && sheet.path.isEmpty && sheet.base == nil, "a layer that is gone reads as empty")
    sheet.path = []
    sheet.isPresented = false
    #expect(log.all.count == 3, "a gone layer's setters do nothing")
  }

  @Test func aPathTheLayerDidNotGiveIsNotTaken() {
    let (model, log) = makeUntypedModel(state)
    model.stack.baseLayer.path = [1, 2]
    model.stack.baseLayer.path = [7]
    #expect(model.state == .stack(stack("R+")), "[7] keeps none of the layer's pushes")
    #expect(log.all.count == 2)
  }

  @Test func theBaseLayerCannotBeDismissed() {
    let (model, log) = makeUntypedModel(state)
    model.stack.baseLayer.isPresented = false
    #expect(model.state == state)
    #expect(log.all.count == 1)
  }
}

/// A model over untyped screens whose failures are only reported, with a log of what it records.
@MainActor
func makeUntypedModel(_ state: AnyCoordinator) -> (NavigationModel<JSONValue>, UntypedLog) {
  let log = UntypedLog()
  let model = NavigationModel(
    state, recorder: log, delayMilliseconds: 10, clock: ImmediateTestClock(), failureHandling: .report)
  return (model, log)
}

/// A recorder of untyped states, for the tests to read.
final class UntypedLog: NavigationRecording, Sendable {
  private let entries = Protected<[(state: AnyCoordinator, origin: EventOrigin)]>([])

  func record(_ state: AnyCoordinator, cause: JSONValue?, origin: EventOrigin) {
    entries.withLock { $0.append((state, origin)) }
  }

  func record(_ event: LifecycleEvent) {}

  var all: [(state: AnyCoordinator, origin: EventOrigin)] { entries.withLock { $0 } }
}
