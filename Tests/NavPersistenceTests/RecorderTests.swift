import Foundation
import NavCore
import NavPersistence
import NavTestSupport
import Synchronization
import Testing

/// `NavigationRecorder`: states handed over from many tasks end up in the log in order, each
/// change readable as the state it led to; failures reach the app and the recorder picks up
/// from what the store holds.
@Suite struct RecorderTests {
  let folder: TemporaryFolder
  init() throws { folder = try TemporaryFolder() }

  static let launch = AnyCoordinator.stack(stack("R+home"))

  /// Each state handed over, by its cause, to compare with what the log says it led to.
  final class HandedStates: Sendable {
    private let states = Mutex<[JSONValue: AnyCoordinator]>([:])
    func note(_ state: AnyCoordinator, cause: JSONValue) { states.withLock { $0[cause] = state } }
    subscript(cause: JSONValue) -> AnyCoordinator? { states.withLock { $0[cause] } }
  }

  /// For every cause in the session's log, the state after its last event.
  static func statesByCause(_ store: SessionStore, _ session: SessionID) throws -> [(JSONValue, AnyCoordinator)] {
    var result: [(JSONValue, AnyCoordinator)] = []
    try store.replayHistory(of: session) { event, state in
      guard let cause = event.cause else { return }
      if let last = result.last, last.0 == cause { result[result.count - 1].1 = state } else { result.append((cause, state)) }
    }
    return result
  }

  @Test func manyTasksRecordingIntoSeveralSessionsLoseNothing() async throws {
    let store = try SessionStore(path: folder.path("r.sqlite"))
    let sessions = (0..<4).map { sessionID("app-\($0)") }
    let recorders = sessions.map { NavigationRecorder<JSONValue>(store: store, session: $0) }
    let handed = HandedStates()
    for recorder in recorders { recorder.record(Self.launch, cause: "launch") }
    await withTaskGroup(of: Void.self) { group in
      for (sessionIndex, recorder) in recorders.enumerated() {
        for task in 0..<3 {
          group.addTask {
            var rng = SeededRandom(seed: UInt64(sessionIndex * 10 + task + 1))
            var state = Self.launch
            for step in 0..<40 {
              state = (try? state.applying(RandomTrees.operation(for: state, using: &rng))) ?? state
              let cause: JSONValue = [
                "session": .number(Double(sessionIndex)), "task": .number(Double(task)), "step": .number(Double(step)),
              ]
              handed.note(state, cause: cause)
              recorder.record(state, cause: cause, origin: step % 3 == 0 ? .user : .app)
              if step % 7 == 0 { await Task.yield() }
            }
          }
        }
      }
    }
    let final = AnyCoordinator.stack(stack("R+home", "◻+final"))
    for recorder in recorders {
      recorder.record(final, cause: "final")
      try await recorder.flush()
    }
    for session in sessions {
      #expect(try store.state(of: session).state == final)
      let byCause = try Self.statesByCause(store, session)
      #expect(byCause.first?.0 == "launch")
      #expect(byCause.count > 10, "\(session): only \(byCause.count) changes were recorded")
      for (cause, state) in byCause where cause != "launch" && cause != "final" {
        #expect(handed[cause] == state, "\(session): the change \(cause) led to another state than the one handed over")
      }
    }
    #expect(try store.verify().allSatisfy(\.isIntact))
  }

  @Test func aRefusedChangeIsReportedAndTheNextStateIsRecorded() async throws {
    let store = try SessionStore(path: folder.path("r.sqlite"))
    let reported = Mutex<[RecordingFailure]>([])
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
    #expect(try store.state(of: sessionID("s")).state == .stack(stack("R+home", "↑list")))
    // Reported once: the next flush has nothing to say.
    try await recorder.flush()
  }

  @Test func aLockedStoreIsReportedAndTheRecorderResynchronizes() async throws {
    let path = folder.path("r.sqlite")
    let store = try SessionStore(path: path, options: StoreOptions(busyTimeoutMilliseconds: 20))
    let reported = Mutex<[RecordingFailure]>([])
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
      guard case .busy = error.error else { Issue.record("expected busy, got \(error)"); return }
    }
    // One transaction or two, depending on how the states met the writer: both are reported.
    let failures = reported.withLock { $0 }
    #expect(failures.allSatisfy { if case .busy = $0.error { true } else { false } })
    #expect(failures.reduce(0) { $0 + $1.unrecordedChanges } == 2)
    try locker.execute("COMMIT")
    #expect(try store.state(of: sessionID("s")).state == .stack(stack("R+home", "↑a")))
    // The next state is diffed against what the store holds, not against the lost ones.
    recorder.record(.stack(stack("R+home", "◻settings")))
    try await recorder.flush()
    #expect(try store.state(of: sessionID("s")).state == .stack(stack("R+home", "◻settings")))
    #expect(try store.verify().allSatisfy(\.isIntact))
  }

  @Test func anotherWriterOnTheSessionIsAConflictAndTheRecorderFollowsIt() async throws {
    let path = folder.path("r.sqlite")
    let store = try SessionStore(path: path)
    let recorder = NavigationRecorder<JSONValue>(store: store, session: sessionID("s"))
    recorder.record(Self.launch)
    try await recorder.flush()
    // Someone else appends to the same session behind the recorder's back.
    try SessionStore(path: path).append(event("s", .presentSheet("intruder"), offset: 5))
    recorder.record(.stack(stack("R+home", "↑a")))
    await #expect(throws: RecordingFailure.self) { try await recorder.flush() }
    recorder.record(.stack(stack("R+home", "↑a")))
    try await recorder.flush()
    #expect(try store.state(of: sessionID("s")).state == .stack(stack("R+home", "↑a")))
    #expect(try store.verify().allSatisfy(\.isIntact))
  }

  @Test func aReadOnlyStoreReportsEveryChangeAndWritesNothing() async throws {
    let path = folder.path("r.sqlite")
    try SessionStore(path: path).append(event("s", .start(Self.launch)))
    let before = try dump(path)
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
    #expect(try dump(path) == before)
  }

  @Test func aNewSessionStartsWithTheLinkAndAnExistingOneIsContinued() async throws {
    let store = try SessionStore(path: folder.path("r.sqlite"))
    let link = SessionLink(session: sessionID("earlier"), seq: 9)
    let first = NavigationRecorder<JSONValue>(store: store, session: sessionID("s"), restoredFrom: link)
    first.record(Self.launch)
    first.record(Self.launch)  // no change: nothing written
    try await first.flush()
    #expect(try store.history(of: sessionID("s")).map(\.operation) == [.start(Self.launch, restoredFrom: link)])
    // A later recorder for the same session goes on from its stored state.
    let second = NavigationRecorder<JSONValue>(store: store, session: sessionID("s"), restoredFrom: link)
    second.record(.stack(stack("R+home", "↑a")))
    try await second.flush()
    #expect(try store.history(of: sessionID("s")).map(\.operation) == [.start(Self.launch, restoredFrom: link), .push("a")])
  }

  @Test func typedScreensAreRecordedThroughTheirCodableForm() async throws {
    enum Screen: Codable, Hashable, Sendable { case home, detail(id: Int) }
    let store = try SessionStore(path: folder.path("r.sqlite"))
    let clock = Mutex<Int64>(1_795_000_000_000)
    let recorder = NavigationRecorder<Screen>(
      store: store, session: sessionID("typed"),
      now: { Timestamp(millisecondsSince1970: clock.withLock { $0 += 250; return $0 }) })
    recorder.record(.stack([.root(.home, withNavigation: true)]))
    recorder.record(.stack([.root(.home, withNavigation: true), .push(.detail(id: 4))]), cause: ["tapped": 4])
    try await recorder.flush()
    let history = try store.history(of: sessionID("typed"))
    #expect(history.map(\.at.millisecondsSince1970) == [1_795_000_000_250, 1_795_000_000_500])
    #expect(history.last?.cause == ["tapped": 4])
    #expect(try store.restore(sessionID("typed"), as: Screen.self).state.routes?.last == .push(.detail(id: 4)))
  }
}

/// A small deterministic generator (SplitMix64), so each task's walk can be replayed.
struct SeededRandom: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
