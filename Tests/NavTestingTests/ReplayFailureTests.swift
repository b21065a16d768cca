import Foundation
import NavCore
import NavPersistence
import NavTestSupport
import NavTesting
import Testing

/// What a failed replay says, and how a recording today's app cannot replay is told apart from
/// a regression.
@MainActor @Suite struct ReplayFailureTests {
  /// Tab 0: an item, a compose sheet with navigation, an item pushed inside it; then back.
  static let script: [ScriptStep] = [
    .action(.open(tab: 0, item: 3)), .tick(milliseconds: 5), .action(.compose(tab: 0, draft: 1, navigation: true)),
    .tick(milliseconds: 5), .action(.open(tab: 0, item: 4)), .tick(milliseconds: 5), .action(.back(tab: 0)),
  ]

  func replay(_ recorded: RecordedScript) throws -> SessionReplay<TwoTabs.Screen, TwoTabs.Action> {
    SessionReplay(try RecordedSession(store: recorded.store, session: recorded.session))
  }

  @Test func aDivergenceNamesTheSeqTheActionThePlaceAndBothSubtrees() async throws {
    let folder = try TemporaryFolder()
    let recorded = try await TwoTabs.record(Self.script, in: folder, session: try SessionID("ticket"))
    let error = #expect(throws: ReplayError.self) {
      try replay(recorded).run(reducer: { try TwoTabs.reduce(&$0, $1, mutation: .missingPop) })
    }
    guard case .diverged(let divergence) = error else {
      Issue.record("not a divergence: \(String(describing: error))")
      return
    }
    #expect(divergence.seq == 5)
    #expect(divergence.actionsMatched == 3)
    #expect(divergence.action == #"back {"back":{"tab":0}}"#)
    let message = divergence.description
    #expect(message.firstRange(of: "diverged at seq 5, after the action back") != nil, "\(message)")
    // Tab 0's stack, where the item was pushed onto the sheet's navigation.
    #expect(message.firstRange(of: "at path [tab 0]: 3 route(s) recorded, 4 replayed") != nil, "\(message)")
    #expect(message.firstRange(of: "the first not in both is replayed push item(4)") != nil, "\(message)")
    #expect(
      message.firstRange(of: "recorded:\n  stack\n    [0] root, navigation   home(tab: 0)") != nil, "\(message)")
    #expect(message.firstRange(of: "replayed:\n  stack\n") != nil, "\(message)")
    #expect(message.firstRange(of: "    [3] push               item(4)") != nil, "\(message)")
  }

  @Test func anActionThatNoLongerDecodesIsNamedAndCanBeMappedOrSkipped() async throws {
    /// The app's actions as an older version named them: `open` was `openItem`.
    enum OldAction: Codable { case openItem(tab: Int, item: Int) }
    let folder = try TemporaryFolder()
    let store = try SessionStore(path: folder.path("app.sqlite"))
    let recorder = NavigationRecorder<TwoTabs.Screen>(store: store, session: try SessionID("old"))
    let model = NavigationModel(TwoTabs.launch, recorder: recorder, failureHandling: .report)
    try model.perform(OldAction.openItem(tab: 1, item: 8)) {
      try model.change { try TwoTabs.reduce(&$0, .open(tab: 1, item: 8)) }
    }
    try TwoTabs.send(.back(tab: 1), to: model)
    try await recorder.flush()
    var replay = SessionReplay<TwoTabs.Screen, TwoTabs.Action>(
      try RecordedSession(store: store, session: try SessionID("old")))

    let error = #expect(throws: ReplayError.self) { try replay.run(reducer: { try TwoTabs.reduce(&$0, $1) }) }
    guard case .causeDoesNotDecode(let seq, let action, _, let matched) = error else {
      Issue.record("not an undecodable cause: \(String(describing: error))")
      return
    }
    #expect(seq == 2 && matched == 0 && action.name == "openItem")
    #expect(error?.description.firstRange(of: "at seq 2, openItem {\"openItem\":{\"item\":8,\"tab\":1}}") != nil)

    replay.resolveUndecodable = { cause in
      // The old action's type, kept in the test, reads the recorded JSON.
      guard cause.name == "openItem",
        case .openItem(let tab, let item)? = try? WireFormat.decode(OldAction.self, from: cause.json)
      else { return .fail }
      return .replay(.open(tab: tab, item: item))
    }
    #expect(try replay.run(reducer: { try TwoTabs.reduce(&$0, $1) }).actionsMatched == 2)

    replay.resolveUndecodable = { _ in .skip }
    let skipped = try replay.run(reducer: { try TwoTabs.reduce(&$0, $1) })
    #expect(skipped.actionsMatched == 1 && skipped.skippedActions.map(\.name) == ["openItem"])
  }

  @Test func aRestoredStartIsRestoredFromItsSourceAndPlayedInLegalSteps() async throws {
    let folder = try TemporaryFolder()
    let source = try await TwoTabs.record(Self.script, in: folder, session: try SessionID("source"))
    let restored = try await source.store.read { try $0.restore(source.session, as: TwoTabs.Screen.self) }
    let next = try await TwoTabs.record(
      [.action(.back(tab: 0))], in: folder, session: try SessionID("next"), start: restored.state,
      restoredFrom: restored.link, store: source.store)
    let report = try replay(next).run(reducer: { try TwoTabs.reduce(&$0, $1) })
    #expect(report.restoredFrom == restored.link && report.restoreChecked)
    #expect(report.restoreSteps >= 3, "\(report)")  // tabs, then the item, the sheet and the item in it

    // A start that is not what today's app restores from its source (a screen changed).
    guard case .tabs(var tabs, let selected) = restored.state, case .stack(var routes) = tabs[0] else {
      Issue.record("the restored state is not two tabs of stacks")
      return
    }
    routes[1].screen = .item(99)
    tabs[0] = .stack(routes)
    let wrong = try await TwoTabs.record(
      [], in: folder, session: try SessionID("wrong"), start: .tabs(tabs, selected: selected),
      restoredFrom: restored.link, store: source.store)
    let error = #expect(throws: ReplayError.self) { try replay(wrong).run(reducer: { try TwoTabs.reduce(&$0, $1) }) }
    guard case .diverged(let divergence) = error else {
      Issue.record("not a divergence: \(String(describing: error))")
      return
    }
    #expect(divergence.seq == 1 && divergence.action == "the restore of source at seq 5")
    #expect(
      divergence.difference.firstRange(of: "route 1 was recorded as push item(99), replayed as push item(3)") != nil)
  }

  @Test func aRecordingThatCannotBeReadSaysWhere() throws {
    let folder = try TemporaryFolder()
    let path = folder.path("bad.jsonl")
    try Data("\n{\"not\": \"an event\"}\n".utf8).write(to: URL(fileURLWithPath: path))
    let error = #expect(throws: ReplayError.self) { try RecordedSession(contentsOf: path) }
    #expect(error?.description.firstRange(of: "bad.jsonl: line 2: ") != nil, "\(String(describing: error))")
    #expect(throws: ReplayError.self) { try RecordedSession(contentsOf: folder.path("missing.jsonl")) }
  }
}
