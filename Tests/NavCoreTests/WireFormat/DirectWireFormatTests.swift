import NavCore
import NavTestSupport
import PropertyBased
import Testing

/// The direct paths for untyped values (the canonical writer and the tree reader the store uses)
/// against the general `Codable` paths they stand in for: same bytes, same values, and the same
/// refusals, on random values and on documents mutated to be almost right.
@Suite struct DirectWireFormatTests {
  /// Integers around the edges of what a double holds exactly.
  static let edgeIntegers = [-1, 0, 1, 2, 7, 1 << 53, (1 << 53) + 1, (1 << 53) + 2, Int.max, Int.min]

  static let sessions: [SessionID] = ["s", "session \"1\"", "é", "a,b"].compactMap { try? SessionID($0) }

  static func event(using rng: inout some RandomNumberGenerator) -> AnyEvent {
    let state = RandomTrees.coordinator(depth: 2, using: &rng)
    var operation = Int.random(in: 0..<5, using: &rng) == 0 ? AnyOperation.start(state) : RandomTrees.operation(for: state, using: &rng)
    if Int.random(in: 0..<10, using: &rng) == 0 {
      let edge = edgeIntegers.randomElement(using: &rng) ?? 0
      operation = [AnyOperation.goBack(edge), .popTo(index: edge), .selectTab(edge, at: [.tab(edge)])].randomElement(using: &rng) ?? .pop()
    }
    let times: [Int64] = [0, -1, 1_795_000_000_123, -62_167_219_200_000, 253_402_300_799_999, 253_402_300_800_000, -62_167_219_200_001]
    let hash = String((0..<64).map { _ in "0123456789abcdef".randomElement(using: &rng) ?? "0" })
    return AnyEvent(
      session: sessions[Int.random(in: 0..<sessions.count, using: &rng)],
      seq: Bool.random(using: &rng) ? nil : (Bool.random(using: &rng) ? Int.random(in: 1...1000, using: &rng) : edgeIntegers.randomElement(using: &rng)),
      at: Timestamp(millisecondsSince1970: times.randomElement(using: &rng) ?? 0),
      origin: Bool.random(using: &rng) ? .app : .user, operation: operation,
      cause: Bool.random(using: &rng) ? RandomTrees.json(depth: 2, using: &rng) : nil,
      hash: Bool.random(using: &rng) ? hash : nil)
  }

  static let events = Generator<AnyEvent, Shrink.None<AnyEvent>> { rng in event(using: &rng) }

  // MARK: Writing

  @Test func eventsWriteTheBytesOfTheGeneralEncoder() async {
    await propertyCheck(count: 2_000, input: Self.events) { event in
      let general = try? WireFormat.tree(of: event).canonicalBytes
      let direct = try? WireFormat.canonicalBytes(event)
      #expect(direct == general, "\(String(decoding: general ?? [], as: UTF8.self))")
      let parts = try? WireFormat.canonicalEncoding(of: event)
      #expect(parts?.event == general)
      if let parts {
        #expect(parts.operation == (try? WireFormat.tree(of: event.operation).canonicalBytes))
      }
    }
  }

  @Test func operationsAndStatesWriteTheBytesOfTheGeneralEncoder() async {
    await propertyCheck(count: 1_000, input: TreeGen.session(depth: 3, length: 1...10)) { state, operations in
      #expect((try? WireFormat.canonicalBytes(state)) == (try? WireFormat.tree(of: state).canonicalBytes))
      for operation in operations {
        #expect((try? WireFormat.canonicalBytes(operation)) == (try? WireFormat.tree(of: operation).canonicalBytes))
      }
    }
  }

  @Test func aValueTheGeneralEncoderRefusesIsRefusedWithItsError() throws {
    let tooLarge = AnyOperation.pop((1 << 53) + 1)
    #expect(throws: WireFormatError.self) { try WireFormat.canonicalBytes(tooLarge) }
    let late = AnyEvent(session: try SessionID("s"), at: Timestamp(millisecondsSince1970: 253_402_300_800_000), operation: .pop())
    do {
      _ = try WireFormat.canonicalBytes(late)
      Issue.record("a time after year 9999 was written")
    } catch {
      #expect(error.field == "at")
    }
  }

  // MARK: Reading

  @Test func eventsReadAsTheGeneralDecoderReadsThem() async {
    var accepted = 0
    await propertyCheck(count: 2_000, input: Self.events) { event in
      guard let tree = try? WireFormat.tree(of: event) else { return }
      let general = try? JSONValueDecoder().decode(AnyEvent.self, from: tree)
      #expect((try? WireFormat.decode(AnyEvent.self, from: tree)) == general)
      if general != nil { accepted += 1 }
    }
    // `start` with a path, a time or an integer out of range encodes but is refused: about half
    // are read (1,030 to 1,075 of 2,000 in five runs), so the check is far from vacuous. The
    // bound leaves room for chance: 1,000 failed about once in a hundred runs.
    #expect(accepted > 900, "only \(accepted) of 2,000 events were read")
  }

  /// A document with one change that is often just wrong: a field removed, added, or given a
  /// value of another type or range. The direct reader must never accept what the general decoder
  /// refuses, nor read it differently.
  @Test func mutatedDocumentsAreReadExactlyAsTheGeneralDecoderReadsThem() async {
    let mutated = Generator<JSONValue, Shrink.None<JSONValue>> { rng in
      var tree = (try? WireFormat.tree(of: Self.event(using: &rng))) ?? .null
      for _ in 0..<Int.random(in: 1...3, using: &rng) { tree = Self.mutate(tree, using: &rng) }
      return tree
    }
    var accepted = 0
    await propertyCheck(count: 4_000, input: mutated) { tree in
      let general = try? JSONValueDecoder().decode(AnyEvent.self, from: tree)
      let direct = try? WireFormat.decode(AnyEvent.self, from: tree)
      #expect(direct == general, "\(tree.canonicalString)")
      if general != nil { accepted += 1 }
      // The same for the parts the store reads on their own.
      if case .object(let members) = tree, let operation = members["op"] {
        #expect((try? WireFormat.decode(AnyOperation.self, from: operation)) == (try? JSONValueDecoder().decode(AnyOperation.self, from: operation)))
        if case .object(let fields) = operation, let state = fields["state"] ?? fields["child"] {
          #expect((try? WireFormat.decode(AnyCoordinator.self, from: state)) == (try? JSONValueDecoder().decode(AnyCoordinator.self, from: state)))
        }
      }
    }
    // Both outcomes must be exercised for the comparison to mean anything.
    #expect(accepted > 100)
    #expect(accepted < 3_900)
  }

  @Test func aRefusedDocumentGetsTheGeneralDecodersMessage() {
    let tree: JSONValue = ["session": "s", "at": "2026-11-21T10:15:30.250Z", "op": ["op": "pop", "count": 0]]
    do {
      _ = try WireFormat.decode(AnyEvent.self, from: tree)
      Issue.record("count 0 was accepted")
    } catch {
      #expect(error.field == "op.count")
      #expect(error.message == "count must be at least 1, not 0")
    }
  }

  static let interestingKeys = [
    "session", "seq", "at", "origin", "op", "cause", "hash", "path", "state", "screen", "child", "withNavigation",
    "count", "index", "routes", "tabs", "selected", "style", "route", "tab", "other",
  ]

  static let interestingValues: [JSONValue] = [
    .null, true, false, 0, 1, -1, 1.5, 2, .number(9_007_199_254_740_994), .number(1e300), "", "push", "root", "sheet",
    "app", "user", "x", "pop", "start", "2026-11-21T10:15:30.250Z", "2026-02-30T10:15:30.250Z",
    .string(String(repeating: "a", count: 64)), .string(String(repeating: "A", count: 64)), [], [:],
    [["route": 0]], [["tab": 1]], [["route": -1]], ["routes": []], ["routes": [["style": "root", "screen": "home"]]],
    ["tabs": [], "selected": 0], ["tabs": [["routes": [["style": "root", "screen": "a"]]]], "selected": 0],
  ]

  /// One random change somewhere in the tree.
  static func mutate(_ value: JSONValue, using rng: inout some RandomNumberGenerator) -> JSONValue {
    switch value {
    case .object(var members):
      let keys = members.keys.sorted()
      // Go deeper, or change this object.
      if let key = keys.randomElement(using: &rng), let member = members[key], Int.random(in: 0..<3, using: &rng) > 0,
        member.isContainer
      {
        members[key] = mutate(member, using: &rng)
        return .object(members)
      }
      switch Int.random(in: 0..<3, using: &rng) {
      case 0: if let key = keys.randomElement(using: &rng) { members[key] = nil }
      case 1: members[interestingKeys.randomElement(using: &rng) ?? "x"] = interestingValues.randomElement(using: &rng) ?? .null
      default: if let key = keys.randomElement(using: &rng) { members[key] = interestingValues.randomElement(using: &rng) ?? .null }
      }
      return .object(members)
    case .array(var elements):
      guard !elements.isEmpty else { return .array([interestingValues.randomElement(using: &rng) ?? .null]) }
      let index = Int.random(in: 0..<elements.count, using: &rng)
      switch Int.random(in: 0..<4, using: &rng) {
      case 0: elements.remove(at: index)
      case 1: elements[index] = interestingValues.randomElement(using: &rng) ?? .null
      default: elements[index] = mutate(elements[index], using: &rng)
      }
      return .array(elements)
    default:
      return interestingValues.randomElement(using: &rng) ?? .null
    }
  }
}

extension JSONValue {
  fileprivate var isContainer: Bool {
    switch self {
    case .object, .array: true
    default: false
    }
  }
}
