import Foundation
import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
import Testing

/// `NavigationRecorder`: states handed over from many tasks end up in the log in order, each
/// change readable as the state it led to; failures reach the app and the recorder picks up
/// from what the store holds.
@Suite struct RecorderTests {
  let folder: TemporaryFolder
  init() throws { folder = try TemporaryFolder() }

  static let launch = AnyCoordinator.stack(stack("R+home"))

  /// For every cause in the session's log, the state after its last event.
  static func statesByCause(_ store: SessionStore, _ session: SessionID) throws -> [(JSONValue, AnyCoordinator)] {
    var result: [(JSONValue, AnyCoordinator)] = []
    try store.replayHistory(of: session) { event, state in
      guard let cause = event.cause else { return }
      if let last = result.last, last.0 == cause {
        result[result.count - 1].1 = state
      } else {
        result.append((cause, state))
      }
    }
    return result
  }

  /// The states handed to one recorder, in the order the recorder took them: the test's lock
  /// is held around each `record` call.
  final class HandedInOrder: Sendable {
    private let handed = Protected<[(cause: JSONValue, state: AnyCoordinator)]>([])

    func record(
      _ state: AnyCoordinator, cause: JSONValue, into recorder: NavigationRecorder<JSONValue>,
      origin: EventOrigin = .app
    ) {
      handed.withLock { handed in
        handed.append((cause, state))
        recorder.record(state, cause: cause, origin: origin)
      }
    }

    /// How many states were handed over.
    var count: Int { handed.withLock { $0.count } }

    /// What the log must hold: each state that differs from the one before it, by cause.
    func expectedChanges(from start: AnyCoordinator?) -> [(cause: JSONValue, state: AnyCoordinator)] {
      var last = start
      return handed.withLock { $0 }.filter { entry in
        defer { last = entry.state }
        return entry.state != last
      }
    }
  }

  /// Random walks from several tasks into one recorder, for several sessions at once.
  static func walk(_ recorder: NavigationRecorder<JSONValue>, _ handed: HandedInOrder, seed: Int, phase: String) async {
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<3 {
        group.addTask {
          var rng = SeededRandom(seed: UInt64(seed * 10 + task + 1))
          var state = Self.launch
          for step in 0..<30 {
            state = (try? state.applying(RandomTrees.operation(for: state, using: &rng))) ?? state
            let cause: JSONValue = [
              "phase": .string(phase), "task": .number(Double(task)), "step": .number(Double(step)),
            ]
            handed.record(state, cause: cause, into: recorder, origin: step % 3 == 0 ? .user : .app)
            if step % 7 == 0 { await Task.yield() }
          }
        }
      }
    }
  }

  @Test func manyTasksRecordingIntoSeveralSessionsLoseNothing() async throws {
    let store = try SessionStore(path: folder.path("r.sqlite"))
    let sessions = (0..<4).map { sessionID("app-\($0)") }
    let recorders = sessions.map { NavigationRecorder<JSONValue>(store: store, session: $0) }
    let handed = sessions.map { _ in HandedInOrder() }
    for (recorder, log) in zip(recorders, handed) { log.record(Self.launch, cause: "launch", into: recorder) }
    await withTaskGroup(of: Void.self) { group in
      for index in recorders.indices {
        group.addTask { await Self.walk(recorders[index], handed[index], seed: index, phase: "walk") }
      }
    }
    for recorder in recorders { try await recorder.flush() }
    for (session, log) in zip(sessions, handed) {
      let expected = log.expectedChanges(from: nil)
      let recorded = try Self.statesByCause(store, session)
      #expect(recorded.map(\.0) == expected.map(\.cause), "\(session): the log's changes are not the ones handed over")
      #expect(
        recorded.map(\.1) == expected.map(\.state), "\(session): a change led to another state than the one handed over"
      )
      #expect(expected.count > 20, "too few changes to test anything")
    }
    #expect(try await store.read { try $0.verify() }.allSatisfy(\.isIntact))
  }

  /// Several tasks recording into several sessions while another process holds the store's
  /// lock for a while: the changes made meanwhile are reported, not one of them reaches the log,
  /// and the log goes on afterwards exactly from what it holds.
  @Test func concurrentRecordingThroughALockedStoreResynchronizes() async throws {
    let path = folder.path("r.sqlite")
    let store = try SessionStore(path: path, options: StoreOptions(busyTimeout: .milliseconds(20)))
    let sessions = (0..<2).map { sessionID("app-\($0)") }
    let lost = Protected(0)
    let recorders = sessions.map { session in
      NavigationRecorder<JSONValue>(
        store: store, session: session,
        onFailure: { failure in
          if case .busy = failure.error { lost.withLock { $0 += failure.unrecordedChanges } }
        })
    }
    let before = sessions.map { _ in HandedInOrder() }
    let during = sessions.map { _ in HandedInOrder() }
    let after = sessions.map { _ in HandedInOrder() }
    for (recorder, log) in zip(recorders, before) { log.record(Self.launch, cause: "launch", into: recorder) }
    for phase in 0..<3 {
      let logs = [before, during, after][phase]
      let locker = try SQLiteConnection(path: path, mode: .readWrite(create: false))
      if phase == 1 { try locker.execute("BEGIN IMMEDIATE") }
      await withTaskGroup(of: Void.self) { group in
        for index in recorders.indices {
          group.addTask { await Self.walk(recorders[index], logs[index], seed: index + 10 * phase, phase: "\(phase)") }
        }
      }
      for recorder in recorders {
        if phase == 1 {
          await #expect(throws: RecordingFailure.self) { try await recorder.flush() }
        } else {
          try await recorder.flush()
        }
      }
      if phase == 1 { try locker.execute("COMMIT") }
    }
    // Every state handed over while the store was locked was reported lost, and only those.
    #expect(lost.withLock { $0 } == during.reduce(0) { $0 + $1.count })
    for index in sessions.indices {
      let first = before[index].expectedChanges(from: nil)
      let last = after[index].expectedChanges(from: first.last?.state)
      let recorded = try Self.statesByCause(store, sessions[index])
      #expect(recorded.map(\.0) == (first + last).map(\.cause), "\(sessions[index])")
      #expect(recorded.map(\.1) == (first + last).map(\.state), "\(sessions[index])")
    }
    #expect(try await store.read { try $0.verify() }.allSatisfy(\.isIntact))
  }

  @Test func aRefusedChangeIsReportedAndTheNextStateIsRecorded() async throws {
    let store = try SessionStore(path: folder.path("r.sqlite"))
    let reported = Protected<[RecordingFailure]>([])
    let recorder = NavigationRecorder<JSONValue>(
      store: store, session: sessionID("s"), onFailure: { failure in reported.withLock { $0.append(failure) } })
    var failures = recorder.failures.makeAsyncIterator()
    recorder.record(Self.launch)
    // The top coordinator cannot turn into tabs: diff cannot express it.
    recorder.record(.tabs([Self.launch], selected: 0))
    recorder.record(.stack(stack("R+home", "↑list")))
    await #expect(throws: RecordingFailure.self) { try await recorder.flush() }
    let failure = await failures.next()
    guard case .cannotRecord? = failure?.error else {
      Issue.record("expected cannotRecord, got \(String(describing: failure))")
      return
    }
    #expect(failure?.unrecordedChanges == 1)
    #expect(reported.withLock { $0 } == [failure].compactMap { $0 })
    #expect(try await store.read { try $0.state(of: sessionID("s")) }.state == .stack(stack("R+home", "↑list")))
    // Reported once: the next flush has nothing to say.
    try await recorder.flush()
  }

  @Test func aLockedStoreIsReportedAndTheRecorderResynchronizes() async throws {
    let path = folder.path("r.sqlite")
    let store = try SessionStore(path: path, options: StoreOptions(busyTimeout: .milliseconds(20)))
    let reported = Protected<[RecordingFailure]>([])
    let recorder = NavigationRecorder<JSONValue>(
      store: store, session: sessionID("s"), onFailure: { failure in reported.withLock { $0.append(failure) } })
    recorder.record(Self.launch)
    recorder.record(.stack(stack("R+home", "↑a")))
    try await recorder.flush()
    // Another process holds the write lock past the busy timeout.
    let locker = try SQLiteConnection(path: path, mode: .readWrite(create: false))
    try locker.execute("BEGIN IMMEDIATE")
    recorder.record(.stack(stack("R+home", "↑a", "↑b")))
    recorder.record(.stack(stack("R+home", "↑a", "↑b", "◻c")))
    do {
      try await recorder.flush()
      Issue.record("a write through a locked store was not reported")
    } catch {
      guard case .busy = error.error else {
        Issue.record("expected busy, got \(error)")
        return
      }
    }
    // One transaction or two, depending on how the states met the writer: both are reported.
    let failures = reported.withLock { $0 }
    #expect(failures.allSatisfy { if case .busy = $0.error { true } else { false } })
    #expect(failures.reduce(0) { $0 + $1.unrecordedChanges } == 2)
    try locker.execute("COMMIT")
    #expect(try await store.read { try $0.state(of: sessionID("s")) }.state == .stack(stack("R+home", "↑a")))
    // Once the store can take it, a flush writes the screen the user is on.
    try await recorder.flush()
    #expect(
      try await store.read { try $0.state(of: sessionID("s")) }.state == .stack(stack("R+home", "↑a", "↑b", "◻c")))
    // The next state is diffed against what the store holds.
    recorder.record(.stack(stack("R+home", "◻settings")))
    try await recorder.flush()
    #expect(try await store.read { try $0.state(of: sessionID("s")) }.state == .stack(stack("R+home", "◻settings")))
    #expect(try await store.read { try $0.verify() }.allSatisfy(\.isIntact))
  }

  @Test func anotherWriterOnTheSessionIsAConflictAndTheRecorderFollowsIt() async throws {
    let path = folder.path("r.sqlite")
    let store = try SessionStore(path: path)
    let recorder = NavigationRecorder<JSONValue>(store: store, session: sessionID("s"))
    recorder.record(Self.launch)
    try await recorder.flush()
    // Someone else appends to the same session behind the recorder's back.
    try await SessionStore(path: path).write { try $0.append(event("s", .presentSheet("intruder"), offset: 5)) }
    recorder.record(.stack(stack("R+home", "↑a")))
    do {
      try await recorder.flush()
      Issue.record("the other writer's event went unnoticed")
    } catch {
      #expect(error.error == .conflict(session: sessionID("s"), expected: 2, actual: 3))
    }
    // The flush read the session again and wrote the state handed over against it.
    #expect(try await store.read { try $0.state(of: sessionID("s")) }.state == .stack(stack("R+home", "↑a")))
    #expect(
      try await store.read { try $0.history(of: sessionID("s")) }.map(\.operation.name) == [
        "start", "presentSheet", "dismiss", "push",
      ])
    try await recorder.flush()
    #expect(try await store.read { try $0.verify() }.allSatisfy(\.isIntact))
  }

  @Test func aReadOnlyStoreReportsEveryChangeAndWritesNothing() async throws {
    let path = folder.path("r.sqlite")
    try await SessionStore(path: path).write { try $0.append(event("s", .start(Self.launch))) }
    let before = try tableDump(path)
    let readOnly = try SessionStore(path: path, options: StoreOptions(access: .readOnly))
    let recorder = NavigationRecorder<JSONValue>(store: readOnly, session: sessionID("s"))
    recorder.record(.stack(stack("R+home", "↑a")))
    do {
      try await recorder.flush()
      Issue.record("a read-only store accepted a recording")
    } catch {
      #expect(error.error == .readOnly(path: path))
      #expect("\(error)".hasPrefix("recording session 's': 1 change not recorded: "))
    }
    #expect(try tableDump(path) == before)
  }

  @Test func aNewSessionStartsWithTheLinkAndAnExistingOneIsContinued() async throws {
    let store = try SessionStore(path: folder.path("r.sqlite"))
    let link = SessionLink(session: sessionID("earlier"), seq: 9)
    let first = NavigationRecorder<JSONValue>(store: store, session: sessionID("s"), restoredFrom: link)
    first.record(Self.launch)
    first.record(Self.launch)  // no change: nothing written
    try await first.flush()
    // The start names the store's device key, made on this first recording.
    var context = SessionContext()
    context.deviceKey = try store.deviceKey()
    #expect(context.deviceKey != nil)
    #expect(
      try await store.read { try $0.history(of: sessionID("s")) }.map(\.operation) == [
        .start(Self.launch, restoredFrom: link, context: context)
      ])
    // A later recorder for the same session goes on from its stored state.
    let second = NavigationRecorder<JSONValue>(store: store, session: sessionID("s"), restoredFrom: link)
    second.record(.stack(stack("R+home", "↑a")))
    try await second.flush()
    #expect(
      try await store.read { try $0.history(of: sessionID("s")) }.map(\.operation) == [
        .start(Self.launch, restoredFrom: link, context: context), .push("a"),
      ])
  }

  @Test func typedScreensAreRecordedThroughTheirCodableForm() async throws {
    enum Screen: Codable, Hashable, Sendable {
      case home
      case detail(id: Int)
    }
    let store = try SessionStore(path: folder.path("r.sqlite"))
    let clock = Protected<Int64>(1_795_000_000_000)
    let recorder = NavigationRecorder<Screen>(
      store: store, session: sessionID("typed"),
      now: {
        Timestamp(
          millisecondsSince1970: clock.withLock {
            $0 += 250
            return $0
          })
      })
    recorder.record(.stack([.root(.home, withNavigation: true)]))
    recorder.record(.stack([.root(.home, withNavigation: true), .push(.detail(id: 4))]), cause: ["tapped": 4])
    try await recorder.flush()
    let history = try await store.read { try $0.history(of: sessionID("typed")) }
    #expect(history.map(\.at.millisecondsSince1970) == [1_795_000_000_250, 1_795_000_000_500])
    #expect(history.last?.cause == ["tapped": 4])
    #expect(
      try await store.read { try $0.restore(sessionID("typed"), as: Screen.self) }.state.routes?.last
        == .push(.detail(id: 4)))
  }

  /// An app without the model records with its own actions as causes, as `perform` takes them;
  /// an action that does not encode costs the change nothing but its cause.
  @Test func anyEncodableActionIsACause() async throws {
    struct Tapped: Encodable { var tapped: Int }
    struct Broken: Encodable {
      func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(0, EncodingError.Context(codingPath: [], debugDescription: "no"))
      }
    }
    let store = try SessionStore(path: folder.path("causes.sqlite"))
    let failures = Protected<[RecordingFailure]>([])
    let recorder = NavigationRecorder<JSONValue>(
      store: store, session: sessionID("causes"), onFailure: { failure in failures.withLock { $0.append(failure) } })
    recorder.record(Self.launch, cause: Tapped(tapped: 1))
    recorder.record(.stack(stack("R+home", "↑list")), cause: Broken())
    try await recorder.flush()
    let history = try await store.read { try $0.history(of: sessionID("causes")) }
    #expect(history.map(\.cause) == [["tapped": 1], nil])
    #expect(failures.withLock { $0.map(\.error) }.count == 1)
    guard case .causeNotEncodable? = failures.withLock({ $0.first?.error }) else {
      Issue.record("expected the cause's failure")
      return
    }
  }
}
