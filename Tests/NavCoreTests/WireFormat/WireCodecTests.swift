import Foundation
@_spi(Internals) import NavCore
import NavJSON
import NavTestSupport
import PropertyBased
import Testing

/// The one wire-format codec, held to things outside itself: outcomes recorded from the codecs
/// it replaced, the generic RFC 8785 writer, Foundation's JSON, and its own fixed point.
@Suite struct WireCodecTests {
  // MARK: Recorded outcomes

  /// One document and what each reading of it gave, recorded with the codecs this one replaced
  /// (the `Codable` conformances and the direct reader and writer, at commit afdadde): the
  /// canonical text of what was read, or the error, field and message. Or canonical bytes that
  /// the old writer wrote (`written`).
  struct Recorded: Decodable, CustomTestStringConvertible, Sendable {
    var document: String?
    var event: String?
    var typedEvent: String?
    var op: String?
    var typedOp: String?
    var state: String?
    var typedState: String?
    var written: String?
    var testDescription: String { document ?? written ?? "" }
  }

  static let recorded: [Recorded] = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/codec-outcomes.jsonl")
    let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").compactMap { try? JSONDecoder().decode(Recorded.self, from: Data($0.utf8)) }
  }()

  static let recordedReadings = recorded.filter { $0.document != nil }
  static let recordedWritings = recorded.compactMap(\.written)

  static func outcome<T: Codable>(_ read: () throws -> T) -> String {
    do {
      return "ok:" + (try WireFormat.canonicalString(try read()))
    } catch {
      return "err:\(error)"
    }
  }

  @Test func thereAreHundredsOfRecordedOutcomesOfBothKinds() {
    #expect(Self.recordedReadings.count > 300)
    #expect(Self.recordedReadings.filter { $0.event?.hasPrefix("ok:") == true }.count >= 30)
    #expect(Self.recordedReadings.filter { $0.event?.hasPrefix("err:") == true }.count > 250)
    #expect(Self.recordedReadings.filter { $0.typedOp?.hasPrefix("ok:") == true }.count > 50)
    #expect(Self.recordedWritings.count >= 150)
  }

  /// Every reading of every recorded document, typed and untyped, gives today exactly what it
  /// gave then: the same value written to the same bytes (so the same hashes), or the same
  /// error naming the same field.
  @Test(arguments: recordedReadings) func aRecordedDocumentReadsAsItDid(_ recorded: Recorded) throws {
    let document = try #require(recorded.document)
    let tree = try JSONParser.parse(document)
    #expect(Self.outcome { try WireFormat.decode(AnyEvent.self, from: tree) } == recorded.event)
    // From text, the top-level object is read without a tree: the same outcome.
    #expect(Self.outcome { try WireFormat.decode(AnyEvent.self, from: document) } == recorded.event)
    if let typedEvent = recorded.typedEvent {
      #expect(Self.outcome { try WireFormat.decode(NavigationEvent<AppScreen>.self, from: tree) } == typedEvent)
    }
    guard case .object(let members) = tree, let operation = members["op"] else { return }
    if let expected = recorded.op {
      #expect(Self.outcome { try WireFormat.decode(AnyOperation.self, from: operation) } == expected)
      #expect(Self.outcome { try WireFormat.decode(AnyOperation.self, from: operation.canonicalString) } == expected)
    }
    if let expected = recorded.typedOp {
      #expect(Self.outcome { try WireFormat.decode(NavigationOperation<AppScreen>.self, from: operation) } == expected)
    }
    guard case .object(let fields) = operation, let state = fields["state"] ?? fields["child"] else { return }
    if let expected = recorded.state {
      #expect(Self.outcome { try WireFormat.decode(AnyCoordinator.self, from: state) } == expected)
    }
    if let expected = recorded.typedState {
      #expect(Self.outcome { try WireFormat.decode(Coordinator<AppScreen>.self, from: state) } == expected)
    }
  }

  /// Events the old writer wrote: those that read back (the writer takes some values reading
  /// refuses, such as index -1) are written again to the very same bytes, so their hashes hold.
  @Test func recordedBytesAreWrittenAgainByteForByte() {
    var readBack = 0
    for written in Self.recordedWritings {
      guard let event = try? WireFormat.decode(AnyEvent.self, from: written) else { continue }
      readBack += 1
      #expect((try? WireFormat.canonicalString(event)) == written)
    }
    #expect(readBack > 60)
  }

  // MARK: Writing

  /// The codec writes each object's fields in the order its field list is sorted into; the
  /// generic RFC 8785 writer sorts whatever keys it finds. Both must give the same bytes.
  @Test func canonicalBytesAreTheGenericCanonicalBytesOfTheirJSON() async {
    var compared = 0
    await checkProperty(count: 1_000, input: RandomEvents.generator) { event in
      // (Values beyond what reading takes, such as 2^63, have bytes the strict parser refuses.)
      guard let bytes = try? WireFormat.canonicalBytes(event), let tree = try? JSONParser.parse(bytes) else { return }
      compared += 1
      #expect(tree.canonicalBytes == bytes, "\(String(decoding: bytes, as: UTF8.self))")
    }
    #expect(compared > 300)
    await checkProperty(count: 500, input: TreeGen.session(depth: 3, length: 1...10)) { state, operations in
      let bytes = (try? WireFormat.canonicalBytes(state)) ?? []
      #expect(!bytes.isEmpty)
      #expect((try? JSONParser.parse(bytes))?.canonicalBytes == bytes)
      for operation in operations where OperationProperties.isWritable(operation) {
        let bytes = (try? WireFormat.canonicalBytes(operation)) ?? []
        #expect(!bytes.isEmpty)
        #expect((try? JSONParser.parse(bytes))?.canonicalBytes == bytes)
      }
    }
  }

  @Test func canonicalBytesAreAFixedPoint() async {
    var written = 0
    await checkProperty(count: 1_000, input: RandomEvents.generator) { event in
      guard let bytes = try? WireFormat.canonicalBytes(event),
        let read = try? WireFormat.decode(AnyEvent.self, from: bytes)
      else {
        return
      }
      written += 1
      #expect((try? WireFormat.canonicalBytes(read)) == bytes)
    }
    #expect(written > 300)
  }

  /// When several fields cannot be written, the one named is the first in reading order, as
  /// reading names the first field it cannot read.
  @Test func aValueThatCannotBeWrittenNamesItsFirstFieldInReadingOrder() throws {
    let late = Timestamp(millisecondsSince1970: 253_402_300_800_000)
    var event = AnyEvent(session: try SessionID("s"), seq: Int.max, at: late, operation: .pop())
    #expect(
      throws: WireFormatError(
        field: "seq", message: "integer \(Int.max) cannot be stored exactly as a JSON number (a double)")
    ) {
      try WireFormat.canonicalBytes(event)
    }
    event.seq = nil
    #expect(throws: WireFormatError(field: "at", message: "the time is outside the years 0000 to 9999")) {
      try WireFormat.canonicalBytes(event)
    }
    event.at = Timestamp(millisecondsSince1970: 0)
    event.operation = .goBack((1 << 53) + 1, at: [.tab((1 << 53) + 1)])
    #expect(
      throws: WireFormatError(
        field: "op.path[0].tab",
        message: "integer 9007199254740993 cannot be stored exactly as a JSON number (a double)")
    ) {
      try WireFormat.canonicalBytes(event)
    }
  }

  // MARK: Foundation

  /// Foundation's encoder and decoder go through the same codec (its `Codable` conformances
  /// are the codec), and Foundation's own JSON text reads as ours does.
  @Test func foundationsJSONRoundTripsThroughTheCodec() async {
    await checkProperty(count: 500, input: RandomEvents.generator) { event in
      guard let canonical = try? WireFormat.canonicalBytes(event),
        let read = try? WireFormat.decode(AnyEvent.self, from: canonical)
      else {
        return
      }
      let foundationText = try? JSONEncoder().encode(read)
      #expect(foundationText != nil)
      #expect((try? WireFormat.decode(AnyEvent.self, from: Array(foundationText ?? Data()))) == read)
      #expect((try? JSONDecoder().decode(AnyEvent.self, from: Data(canonical))) == read)
    }
  }

  @Test func foundationSeesTheCodecsErrors() {
    let text = #"{"session":"s","at":"2026-11-21T10:15:30.250Z","op":{"op":"pop","count":0}}"#
    do {
      _ = try JSONDecoder().decode(AnyEvent.self, from: Data(text.utf8))
      Issue.record("count 0 was accepted")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.codingPath.map(\.stringValue) == ["op", "count"])
      #expect(context.debugDescription == "count must be at least 1, not 0")
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  // MARK: The catalog

  /// A document with only an operation's required fields, from its field list: every name
  /// in the catalog reads back as itself, and refuses the fields of another operation.
  @Test(arguments: [
    "start", "push", "presentSheet", "presentCover", "goBack", "goBackTo", "goBackToRoot", "pop", "popTo",
    "popToRoot", "popToCurrentNavigationRoot", "dismiss", "dismissAll", "setRoutes", "updateScreen", "selectTab",
    "setTabs",
  ])
  func everyOperationOfTheSpecReadsAndWritesBack(_ name: String) throws {
    let stack: JSONValue = ["routes": [["style": "root", "screen": "a"]]]
    let required: [String: JSONValue] = [
      "state": stack, "screen": "b", "index": 0, "routes": [["style": "root", "screen": "a"]], "tabs": [stack],
      "selected": 0,
    ]
    var members: [String: JSONValue] = ["op": .string(name)]
    let fields: [String] =
      switch name {
      case "start": ["state"]
      case "push", "presentSheet", "presentCover": ["screen"]
      case "goBackTo", "popTo", "selectTab": ["index"]
      case "setRoutes": ["routes"]
      case "updateScreen": ["index", "screen"]
      case "setTabs": ["tabs", "selected"]
      default: []
      }
    for field in fields { members[field] = required[field] }
    let operation = try WireFormat.decode(AnyOperation.self, from: JSONValue.object(members))
    #expect(operation.name == name)
    #expect(try JSONParser.parse(try WireFormat.canonicalBytes(operation)) == .object(members))
    #expect(!operation.summary.isEmpty)
    members["selected"] = name == "setTabs" ? nil : 0
    members["tabs"] = name == "setTabs" ? nil : [stack]
    #expect(throws: WireFormatError.self) { try WireFormat.decode(AnyOperation.self, from: JSONValue.object(members)) }
  }

  @Test func defaultsAreLeftOutWhenWritten() throws {
    #expect(try WireFormat.canonicalString(AnyOperation.goBack(1)) == #"{"op":"goBack"}"#)
    #expect(try WireFormat.canonicalString(AnyOperation.goBack(2)) == #"{"count":2,"op":"goBack"}"#)
    #expect(try WireFormat.canonicalString(AnyOperation.presentSheet("a")) == #"{"op":"presentSheet","screen":"a"}"#)
    #expect(
      try WireFormat.canonicalString(AnyOperation.presentSheet("a", withNavigation: true, at: [.route(0)]))
        == #"{"op":"presentSheet","path":[{"route":0}],"screen":"a","withNavigation":true}"#)
  }
}

/// Random events for the codec's properties, edges included: integers around what a double
/// holds exactly, times at and past the years the format allows, links, causes and hashes.
enum RandomEvents {
  static let edgeIntegers = [-1, 0, 1, 2, 7, 1 << 53, (1 << 53) + 1, (1 << 53) + 2, Int.max, Int.min]

  static let sessions: [SessionID] = ["s", "session \"1\"", "é", "a,b"].compactMap { try? SessionID($0) }

  static func event(using rng: inout some RandomNumberGenerator) -> AnyEvent {
    let state = RandomTrees.coordinator(depth: 2, using: &rng)
    var operation =
      Int.random(in: 0..<5, using: &rng) == 0
      ? AnyOperation.start(state, restoredFrom: RandomTrees.link(using: &rng))
      : RandomTrees.operation(for: state, using: &rng)
    if Int.random(in: 0..<10, using: &rng) == 0 {
      let edge = edgeIntegers.randomElement(using: &rng) ?? 0
      operation =
        [AnyOperation.goBack(edge), .popTo(index: edge), .selectTab(edge, at: [.tab(edge)])].randomElement(using: &rng)
        ?? .pop()
    }
    let times: [Int64] = [
      0, -1, 1_795_000_000_123, -62_167_219_200_000, 253_402_300_799_999, 253_402_300_800_000, -62_167_219_200_001,
    ]
    let hash = String((0..<64).map { _ in "0123456789abcdef".randomElement(using: &rng) ?? "0" })
    return AnyEvent(
      session: sessions[Int.random(in: 0..<sessions.count, using: &rng)],
      seq: Bool.random(using: &rng)
        ? nil
        : (Bool.random(using: &rng) ? Int.random(in: 1...1000, using: &rng) : edgeIntegers.randomElement(using: &rng)),
      at: Timestamp(millisecondsSince1970: times.randomElement(using: &rng) ?? 0),
      origin: Bool.random(using: &rng) ? .app : .user, operation: operation,
      cause: Bool.random(using: &rng) ? RandomTrees.json(depth: 2, using: &rng) : nil,
      hash: Bool.random(using: &rng) ? hash : nil)
  }

  static let generator = Generator<AnyEvent, Shrink.None<AnyEvent>> { rng in event(using: &rng) }
}
