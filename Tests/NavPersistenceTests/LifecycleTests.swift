import Foundation
@_spi(Internals) import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import PropertyBased
import Testing

/// The app's lifecycle in the log: `background`, `foreground` and `end` follow the phase rules
/// at every way in, keep the session row's phase and foreground time, and make screen views
/// count the time in the foreground only.
@Suite struct LifecycleTests {
  let folder: TemporaryFolder
  init() throws { folder = try TemporaryFolder() }

  static let home = AnyCoordinator.stack(stack("R+home"))

  @Test func theRulesHoldAtAnAppendAndARefusalWritesNothing() throws {
    let store = try SessionStore(path: folder.path("s.sqlite"))
    try store.append(event("s", .start(Self.home)))
    func refusal(_ operation: AnyOperation, offset: Int64) throws -> NavigationError.Reason? {
      let before = try tableDump(folder.path("s.sqlite"))
      do {
        try store.append(event("s", operation, offset: offset))
        return nil
      } catch {
        #expect(try tableDump(folder.path("s.sqlite")) == before, "a refused \(operation.name) writes nothing")
        guard case .rejected(_, _, let navigation) = error else {
          Issue.record("\(error)")
          return nil
        }
        return navigation.reason
      }
    }
    #expect(try refusal(.foreground, offset: 1) == .alreadyIn(.foreground))
    #expect(try refusal(.background, offset: 1_000) == nil)
    #expect(try refusal(.background, offset: 1_001) == .alreadyIn(.background))
    #expect(try refusal(.push(["screen": "inTheBackground"]), offset: 1_500) == nil, "navigation goes on")
    #expect(try refusal(.foreground, offset: 61_000) == nil)
    #expect(try refusal(.end(reason: "signedOut"), offset: 65_000) == nil)
    for operation in [AnyOperation.foreground, .background, .end(), .pop()] {
      #expect(try refusal(operation, offset: 70_000) == .sessionEnded)
    }
    let summary = try store.summary(of: sessionID("s"))
    #expect(summary.phase == .ended && summary.eventCount == 5)
    #expect(summary.durationMilliseconds == 65_000 && summary.foregroundMilliseconds == 5_000)
    #expect(try store.verify().allSatisfy(\.isIntact))
  }

  @Test func anImportRefusesTheLineThatBreaksThePhaseRules() throws {
    let store = try SessionStore(path: folder.path("i.sqlite"))
    let lines = try [
      event("s", .start(Self.home)), event("s", .background, offset: 10), event("s", .background, offset: 20),
    ].map { try WireFormat.canonicalString($0) }
    #expect(throws: StoreError.self) { try store.importJSONLines(from: LinesInMemory(lines)) }
    do {
      try store.importJSONLines(from: LinesInMemory(lines))
    } catch {
      guard case .lineFailed(3, .rejected(_, 3, let navigation)) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(navigation.reason == .alreadyIn(.background))
    }
  }

  @Test func theRowsPhaseAndForegroundTimeAreHeldToTheEvents() throws {
    let path = folder.path("t.sqlite")
    let store = try SessionStore(path: path)
    for event in [
      event("s", .start(Self.home)), event("s", .background, offset: 1_000), event("s", .foreground, offset: 9_000),
    ] {
      try store.append(event)
    }
    let connection = try SQLiteConnection(path: path, mode: .readWrite(create: false))
    try connection.execute("UPDATE sessions SET phase = 'background'")
    #expect(try store.verify().first?.failure?.problem == .phaseDiffers)
    try connection.execute("UPDATE sessions SET phase = 'foreground', foreground_ms = 9000")
    #expect(try store.verify().first?.failure?.problem == .clockColumnsDiffer)
    try connection.execute("UPDATE sessions SET foreground_ms = 1000")
    #expect(try store.verify().allSatisfy(\.isIntact))
  }

  @Test func endSessionAppendsAnEndAndNothingFollowsIt() throws {
    let store = try SessionStore(path: folder.path("e.sqlite"))
    try store.append(event("s", .start(Self.home)))
    try store.endSession(
      sessionID("s"), reason: String(repeating: "x", count: 300),
      at: Timestamp(millisecondsSince1970: 1_795_000_005_000))
    let last = try #require(try store.history(of: sessionID("s")).last)
    #expect(last.operation == .end(reason: String(repeating: "x", count: 256)), "cut to what the wire format holds")
    #expect(throws: StoreError.self) { try store.append(event("s", .push(["screen": "late"]), offset: 6_000)) }
    try store.endSession(sessionID("s"), reason: "again")  // already ended: nothing more
    #expect(try store.summary(of: sessionID("s")).eventCount == 2)
    #expect(try store.verify().allSatisfy(\.isIntact))
  }

  /// The recorder writes a lifecycle event once, whatever the number of times the app reports
  /// its phase; after `end`, states are reported as failures, never written.
  @Test func theRecorderWritesEachPhaseChangeOnceAndNothingAfterTheEnd() async throws {
    let store = try SessionStore(path: folder.path("r.sqlite"))
    let recorder = NavigationRecorder<JSONValue>(store: store, session: sessionID("r"))
    recorder.record(.background)  // before the first state: refused, reported
    await #expect(throws: RecordingFailure.self) { try await recorder.flush() }
    recorder.record(Self.home)
    recorder.record(.foreground)
    recorder.record(.background)
    recorder.record(.background)
    recorder.record(.foreground)
    recorder.record(.end(reason: "signedOut"))
    recorder.record(.end())
    try await recorder.flush()
    recorder.record(.stack(stack("R+home,P+late")))
    await #expect(throws: RecordingFailure.self) { try await recorder.flush() }
    let names = try await store.read { try $0.history(of: sessionID("r")) }.map(\.operation.name)
    #expect(names == ["start", "background", "foreground", "end"])
  }

  /// A sign-out and a sign-in on one live model: the first session ends with the action that
  /// ended it as the end's cause, the next starts at the state as it is, with its own cause.
  @MainActor @Test func aSignOutKeepsItsCauseAndTheNextSessionStartsOnTheSameModel() async throws {
    let store = try SessionStore(path: folder.path("m.sqlite"))
    let first = NavigationRecorder<JSONValue>(store: store, session: sessionID("before"))
    let model = NavigationModel(Self.home, recorder: first, failureHandling: .report)
    model.perform(["signOutTapped": [:]] as JSONValue) {
      model.stack.push("signIn")
      model.appLifecycle(.end(reason: "signedOut"))
    }
    let second = NavigationRecorder<JSONValue>(store: store, session: sessionID("after"))
    model.startSession(recordingWith: second, cause: ["signedIn": [:]] as JSONValue)
    model.stack.goBackToRoot()
    try await first.flush()
    try await second.flush()
    let before = try await store.read { try $0.history(of: sessionID("before")) }
    #expect(before.map(\.operation.name) == ["start", "push", "end"])
    #expect(before.suffix(2).map(\.cause) == [["signOutTapped": [:]], ["signOutTapped": [:]]])
    let after = try await store.read { try $0.history(of: sessionID("after")) }
    #expect(after.map(\.operation.name) == ["start", "pop"], "diffed by the recorder")
    #expect(after.first?.cause == ["signedIn": [:]])
    #expect(try await store.read { try $0.restore(sessionID("after"), as: JSONValue.self) }.state == Self.home)
  }

  /// Random sessions with lifecycle events at random places, and clocks that sometimes go back:
  /// the row's phase and foreground time, `verify`, and the screen views agree with a model of
  /// the phases; no view is negative, none is seen in the background, and the views add up to
  /// the foreground time.
  @Test func screenViewsCountTheForegroundOnly() async throws {
    let scenarios = Generator<[[AnyEvent]], Shrink.None<[[AnyEvent]]>> { rng in
      (0..<Int.random(in: 1...3, using: &rng)).map { index in
        Self.randomSession(id: "l\(index)", using: &rng)
      }
    }
    await checkProperty(count: 30, input: scenarios) { sessions in
      let folder = try TemporaryFolder()
      let store = try SessionStore(path: folder.path("l.sqlite"))
      let all = sessions.flatMap { $0 }
      if all.count % 2 == 0 {
        try store.importJSONLines(from: LinesInMemory(try all.map { try WireFormat.canonicalString($0) }))
      } else {
        for event in all { try store.append(event) }
      }
      var views: [[String: ExportValue]] = []
      try store.export(.screenViews) { row in
        views.append(Dictionary(uniqueKeysWithValues: zip(ExportTable.screenViews.columns, row.values)))
      }
      #expect(try store.verify().allSatisfy(\.isIntact))
      for events in sessions {
        let id = events[0].session
        let model = PhaseModel(events)
        let summary = try store.summary(of: id)
        #expect(summary.phase == model.phases.last && summary.foregroundMilliseconds == model.foregroundMilliseconds)
        let own = views.filter { $0["session"] == .text(id.rawValue) }
        var total: Int64 = 0
        for view in own {
          guard case .integer(let duration)? = view["duration_ms"], case .integer(let seq)? = view["seq"] else {
            Issue.record("\(view)")
            continue
          }
          total += duration
          #expect(duration >= 0)
          #expect(model.phases[Int(seq) - 1] == .foreground, "\(id): no view begins in the background (seq \(seq))")
          let resumed = view["resumed"] == .boolean(true)
          #expect(resumed == (events[Int(seq) - 1].operation == .foreground), "\(id): resumed at a return only")
          switch view["ended_by"] {
          case .text("background")?, .text("end")?:
            #expect(view["exited_at"] != .null)
          case .null?:
            #expect(view == own.last, "\(id): only the last view is open")
            #expect(model.phases.last == .foreground)
          default:
            #expect(view["ended_by"] == .text("navigation"))
          }
        }
        #expect(total == model.foregroundMilliseconds, "\(id): the views add up to the foreground time")
      }
    }
  }

  /// A random session of stacks only (so a screen is always on top), with lifecycle events at
  /// random legal places and times that mostly go forward.
  static func randomSession(id: String, using rng: inout some RandomNumberGenerator) -> [AnyEvent] {
    let session = sessionID(id)
    var state = AnyCoordinator.stack(stack("R+home"))
    var navigation = [AnyEvent(session: session, at: .now, operation: .start(state))]
    for _ in 0..<Int.random(in: 1...40, using: &rng) {
      let operation = RandomTrees.operation(for: state, using: &rng)
      guard let next = try? state.applying(operation), next.visibleScreen != nil else { continue }
      state = next
      navigation.append(AnyEvent(session: session, at: .now, operation: operation))
    }
    var events: [AnyEvent] = []
    var phase = SessionPhase.foreground
    var time: Int64 = 1_795_000_000_000
    for candidate in navigation {
      events.append(candidate)
      if Int.random(in: 0..<4, using: &rng) == 0 {
        let lifecycle: AnyOperation = phase == .foreground ? .background : .foreground
        events.append(AnyEvent(session: candidate.session, at: candidate.at, operation: lifecycle))
        phase = phase == .foreground ? .background : .foreground
      }
    }
    if Bool.random(using: &rng) {
      events.append(AnyEvent(session: events[0].session, at: events[0].at, operation: .end()))
    }
    for index in events.indices {
      time +=
        Int.random(in: 0..<8, using: &rng) == 0
        ? -Int64.random(in: 1...3_000, using: &rng) : Int64.random(in: 0...20_000, using: &rng)
      events[index].at = Timestamp(millisecondsSince1970: time)
      events[index].seq = nil
    }
    return events
  }
}

/// The phase after each event of a session, and the time spent in the foreground, computed
/// directly from the rules: the model the store is held to.
struct PhaseModel {
  var phases: [SessionPhase] = []
  var foregroundMilliseconds: Int64 = 0

  init(_ events: [AnyEvent]) {
    var phase = SessionPhase.foreground
    for (index, event) in events.enumerated() {
      if index > 0, phase == .foreground {
        foregroundMilliseconds += max(0, event.at.millisecondsSince1970 - events[index - 1].at.millisecondsSince1970)
      }
      switch event.operation.name {
      case "background": phase = .background
      case "foreground": phase = .foreground
      case "end": phase = .ended
      default: break
      }
      phases.append(phase)
    }
  }
}
