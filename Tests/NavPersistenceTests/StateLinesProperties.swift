import Foundation
import NavCore
import NavJSON
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import PropertyBased
import Testing

/// `import --states`: random sessions written as whole states, one line each, with the app's
/// lifecycle between them, import as events after which the store holds each state at its time.
@Suite struct StateLinesProperties {
  /// The state lines of a random session: its states, each at a time of its own, now and then a
  /// line equal to the one before, and background and foreground lines between them.
  static func lines(_ index: Int, using rng: inout some RandomNumberGenerator) throws -> (
    lines: [String], states: [(at: Timestamp, state: AnyCoordinator)]
  ) {
    let session = RandomSession.make(id: "st\(index)", using: &rng, length: Int.random(in: 1...20, using: &rng))
    var lines: [String] = []
    var states: [(Timestamp, AnyCoordinator)] = []
    var time: Int64 = 1_795_000_000_000
    for state in session.states {
      let repeats = Int.random(in: 0..<5, using: &rng) == 0 ? 2 : 1
      for _ in 0..<repeats {
        time += Int64.random(in: 1...5_000, using: &rng)
        let at = Timestamp(millisecondsSince1970: time)
        let stateJSON = try WireFormat.canonicalString(state)
        let cause = Bool.random(using: &rng) ? #","cause":{"step":\#(lines.count)}"# : ""
        lines.append(#"{"session":"st\#(index)","at":"\#(at.rfc3339)","state":\#(stateJSON)\#(cause)}"#)
        states.append((at, state))
      }
      if Int.random(in: 0..<4, using: &rng) == 0 {
        time += 1
        let at = Timestamp(millisecondsSince1970: time).rfc3339
        lines.append(#"{"session":"st\#(index)","at":"\#(at)","op":{"op":"background"}}"#)
        lines.append(#"{"session":"st\#(index)","at":"\#(at)","op":{"op":"foreground"}}"#)
      }
    }
    return (lines, states)
  }

  @Test func theStoreHoldsEachStateAtItsTime() async throws {
    let scenarios = Generator<UInt64, Shrink.None<UInt64>> { rng in rng.next() }
    await checkProperty(count: 60, input: scenarios) { seed in
      var rng = SeededRandom(seed: seed)
      let sessions = try (0..<Int.random(in: 1...3, using: &rng)).map { try Self.lines($0, using: &rng) }
      let folder = try TemporaryFolder()
      let store = try SessionStore(path: folder.path("s.sqlite"))
      // The sessions' lines interleaved, each session's in its order.
      var queues = sessions.map { $0.lines[...] }
      var lines: [String] = []
      while let index = queues.indices.filter({ !queues[$0].isEmpty }).randomElement(using: &rng) {
        lines.append(queues[index].removeFirst())
      }
      _ = try store.importJSONLines(from: StateLines(LinesInMemory(lines)))
      for (index, session) in sessions.enumerated() {
        var after: [Int64: AnyCoordinator] = [:]
        try store.replayHistory(of: sessionID("st\(index)")) { event, state in
          after[event.at.millisecondsSince1970] = state
        }
        for (at, state) in session.states {
          // A line equal to the state before writes nothing: the state then is the one before.
          let held = after.filter { $0.key <= at.millisecondsSince1970 }.max { $0.key < $1.key }?.value
          #expect(held == state, "st\(index) at \(at)")
        }
      }
    }
  }

  @Test func aLineThatIsNoStateIsRefusedWithItsNumber() throws {
    let folder = try TemporaryFolder()
    let store = try SessionStore(path: folder.path("s.sqlite"))
    let start =
      #"{"session":"s","at":"2026-11-21T09:30:00.000Z","state":{"routes":[{"screen":"home","style":"root"}]}}"#
    for (bad, says) in [
      (
        #"{"session":"s","at":"2026-11-21T09:30:01.000Z","state":{"tabs":[{"routes":[{"screen":"a","style":"root"}]}],"selected":0}}"#,
        "top coordinator"
      ),
      (#"{"session":"s","at":"2026-11-21T09:30:01.000Z","state":{"nope":1}}"#, "not a state line"),
      (#"{"session":"s","at":"2026-11-21T09:30:01.000Z","state":{"routes":[]},"op":{"op":"pop"}}"#, "no 'op'"),
    ] {
      do throws(StoreError) {
        _ = try store.importJSONLines(from: StateLines(LinesInMemory([start, bad])))
        Issue.record("\(says): imported")
      } catch {
        #expect(
          "\(error)".hasPrefix("line 2: ") && String(describing: error).firstRange(of: says) != nil, "\(error)")
      }
    }
    #expect(try store.sessions().isEmpty, "a refused import writes nothing")
  }
}
