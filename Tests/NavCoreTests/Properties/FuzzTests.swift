import Foundation
import NavCore
import NavJSON
import NavTestSupport
import Testing

/// Random and mutated input for the decoders and `apply`: nothing traps, every rejection is the
/// typed error of its layer, and whatever is accepted round-trips.
///
/// 3,000 cases per test by default; `NAVSTORE_FUZZ_CASES=100000 swift test --filter Fuzz` is the
/// long mode.
@Suite struct FuzzTests {
  static var cases: Int {
    ProcessInfo.processInfo.environment["NAVSTORE_FUZZ_CASES"].flatMap(Int.init) ?? 3_000
  }

  /// A valid event line, then mutated: bytes flipped, inserted, deleted, duplicated, truncated.
  static func mutatedLine(session: SessionID, using rng: inout SeededRandom) -> [UInt8] {
    let state = RandomTrees.coordinator(depth: 2, using: &rng)
    let operation =
      Int.random(in: 0..<4, using: &rng) == 0
      ? AnyOperation.start(state) : RandomTrees.operation(for: state, using: &rng)
    let event = AnyEvent(
      session: session, seq: Int.random(in: 1...9, using: &rng),
      at: Timestamp(millisecondsSince1970: Int64.random(in: 0...4_000_000_000_000, using: &rng)), operation: operation)
    var bytes = Array(((try? WireFormat.canonicalString(event)) ?? "{}").utf8)
    ByteMutations.mutate(&bytes, rounds: 0...6, using: &rng)
    return bytes
  }

  @Test func mutatedEventLinesDecodeOrFailWithATypedError() throws {
    let session = try SessionID("fuzz")
    let seed = UInt64.random(in: 0...UInt64.max)
    var rng = SeededRandom(seed: seed)
    var accepted = 0
    for _ in 0..<Self.cases {
      let line = Self.mutatedLine(session: session, using: &rng)
      do throws(WireFormatError) {
        let event = try WireFormat.decode(AnyEvent.self, from: line)
        accepted += 1
        let again = try WireFormat.decode(AnyEvent.self, from: try WireFormat.canonicalString(event))
        #expect(
          again == event, "seed \(seed): an accepted line does not round-trip: \(String(decoding: line, as: UTF8.self))"
        )
      } catch {
        #expect(!error.description.isEmpty)
      }
    }
    #expect(accepted > 0, "seed \(seed): the mutations never left a valid line; the fuzzer tests only the parser")
  }

  @Test func randomBytesNeverTrapTheParser() {
    let seed = UInt64.random(in: 0...UInt64.max)
    var rng = SeededRandom(seed: seed)
    for _ in 0..<Self.cases {
      let bytes = (0..<Int.random(in: 0...64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
      _ = try? JSONParser.parse(bytes)
      _ = try? WireFormat.decode(AnyOperation.self, from: bytes)
    }
  }

  @Test func decodedOperationsApplyOrFailWithATypedError() throws {
    let session = try SessionID("fuzz")
    let seed = UInt64.random(in: 0...UInt64.max)
    var rng = SeededRandom(seed: seed)
    for _ in 0..<Self.cases {
      let state = RandomTrees.coordinator(depth: 3, using: &rng)
      let line = Self.mutatedLine(session: session, using: &rng)
      guard let event = try? WireFormat.decode(AnyEvent.self, from: line) else { continue }
      var mutated = state
      do throws(NavigationError) {
        try mutated.apply(event.operation)
        #expect(mutated.structureError() == nil, "seed \(seed)")
      } catch {
        #expect(mutated == state, "seed \(seed): a rejected operation changed the state")
      }
    }
  }
}
