import NavCore
import NavPersistence
import NavTestSupport
import NavTesting
import PropertyBased
import Testing

/// Sessions recorded through a model driven by random actions of a small reducer replay through
/// the same reducer, and through a model running it, matching at every action; a reducer with
/// one rule broken diverges at the first action the rule decides.
@MainActor @Suite struct ReplayProperties {
  @Test func aRecordedSessionReplaysThroughTheSameReducerAtEveryAction() async {
    await checkProperty(count: 150, input: ScriptStep.script(length: 1...40)) { script in
      let folder = try TemporaryFolder()
      let recorded = try await TwoTabs.record(script, in: folder, session: try SessionID("ticket"))
      let session = try RecordedSession(store: recorded.store, session: recorded.session)
      let replay = SessionReplay(session, screens: TwoTabs.Screen.self, actions: TwoTabs.Action.self)

      let byReducer = try replay.run(reducer: { try TwoTabs.reduce(&$0, $1) })
      #expect(byReducer.actionsMatched == recorded.changingActions.count, "\(script)")

      let byModel = try replay.run(app: { $0 }, send: { model, action in try TwoTabs.send(action, to: model) })
      #expect(byModel == byReducer, "\(script)")
    }
  }

  @Test func aFixtureFileReplaysAsTheStoreDoes() async {
    await checkProperty(count: 40, input: ScriptStep.script(length: 1...30)) { script in
      let folder = try TemporaryFolder()
      let recorded = try await TwoTabs.record(script, in: folder, session: try SessionID("ticket"))
      _ = try await recorded.store.read { try $0.bundle(recorded.session, to: folder.path("ticket.jsonl")) }
      let fromFile = try SessionReplay(
        try RecordedSession(contentsOf: folder.path("ticket.jsonl")), screens: TwoTabs.Screen.self,
        actions: TwoTabs.Action.self
      ).run(reducer: { try TwoTabs.reduce(&$0, $1) })
      #expect(fromFile.actionsMatched == recorded.changingActions.count)
    }
  }

  @Test(arguments: TwoTabs.Mutation.allCases)
  func aBrokenRuleDivergesAtTheFirstActionItDecides(_ mutation: TwoTabs.Mutation) async {
    var divergences = 0
    await checkProperty(count: 120, input: ScriptStep.script(length: 1...40)) { script in
      let folder = try TemporaryFolder()
      let recorded = try await TwoTabs.record(script, in: folder, session: try SessionID("ticket"))
      // The first recorded action the mutant handles differently, each sent in the state the
      // recording sent it in.
      let firstDecided = recorded.changingActions.firstIndex { action, before in
        var state = before
        var mutant = before
        try? TwoTabs.reduce(&state, action)
        do { try TwoTabs.reduce(&mutant, action, mutation: mutation) } catch { return true }
        return state != mutant
      }
      let replay = SessionReplay(
        try RecordedSession(store: recorded.store, session: recorded.session), screens: TwoTabs.Screen.self,
        actions: TwoTabs.Action.self)
      do throws(ReplayError) {
        let report = try replay.run(reducer: { try TwoTabs.reduce(&$0, $1, mutation: mutation) })
        #expect(firstDecided == nil, "the mutant replayed \(report) over \(script)")
      } catch {
        guard case .diverged(let divergence) = error, let firstDecided else {
          Issue.record("expected no failure, or a divergence: \(error)")
          return
        }
        divergences += 1
        #expect(divergence.actionsMatched == firstDecided, "\(divergence)")
        let action = RecordedCauseName.of(recorded.changingActions[firstDecided].action)
        #expect(divergence.action.hasPrefix(action), "\(divergence)")
        let events = try await recorded.store.read { try $0.history(of: recorded.session) }
        #expect(events.indices.contains(divergence.seq - 1), "\(divergence)")
        #expect(divergence.description.firstRange(of: "seq \(divergence.seq)") != nil)
      }
    }
    // Most random sessions reach an action the broken rule decides: the property is not vacuous.
    #expect(divergences > 40, "\(divergences) of 120 sessions diverged")
  }
}

/// The name the replay gives an action (its cases joined by dots), for the expectations.
enum RecordedCauseName {
  static func of(_ action: TwoTabs.Action) -> String {
    switch action {
    case .open: "open"
    case .back: "back"
    case .compose: "compose"
    case .close: "close"
    case .backToRoot: "backToRoot"
    case .select: "select"
    case .notification: "notification"
    }
  }
}
