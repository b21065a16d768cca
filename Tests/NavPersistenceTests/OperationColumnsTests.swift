import NavCore
import NavTestSupport
import NavPersistence
import PropertyBased
import Testing

/// The export's shortcut for the op, screen and path columns gives what parsing the whole
/// operation gives, for stored operations as written and for damaged ones.
@Suite struct OperationColumnsTests {
  static func columnsAgree(_ bytes: [UInt8]) -> Bool {
    let shortcut = OperationColumns.of(bytes)
    let parsed = bytes.withUnsafeBufferPointer { OperationColumns.byParsing($0) }
    return shortcut == parsed
  }

  @Test func storedOperationsGiveTheParsedColumns() async {
    await propertyCheck(count: 1_000, input: TreeGen.session(depth: 2, length: 1...8)) { state, operations in
      for operation in operations + [.start(state)] {
        let bytes = try WireFormat.canonicalBytes(operation)
        #expect(Self.columnsAgree(bytes), "\(String(decoding: bytes, as: UTF8.self))")
      }
    }
  }

  @Test func damagedOperationsGiveTheParsedColumns() async {
    let damaged = Generator<[UInt8], Shrink.None<[UInt8]>> { rng in
      let state = RandomTrees.coordinator(depth: 1, using: &rng)
      var bytes = (try? WireFormat.canonicalBytes(RandomTrees.operation(for: state, using: &rng))) ?? []
      ByteMutations.mutate(&bytes, rounds: 1...3, using: &rng)
      return bytes
    }
    await propertyCheck(count: 3_000, input: damaged) { bytes in
      #expect(Self.columnsAgree(bytes), "\(String(decoding: bytes, as: UTF8.self))")
    }
  }

  @Test(arguments: [
    #"{"op":"pop"}"#, #"{"op":"push","screen":"a"}"#, #"{"op":"push","screen":{"name":"x","id":1}}"#,
    #"{"op":"push","screen":1,"screen":2}"#, #"{"op":"push","screen":1,"path":[{"route":0}]}"#,
    #"{"op":"push","screen": {"numberDetail":{"number":3}} }"#, #"{"op":"pop","path":[{"tab":1}]}"#,
    #"{"op":"p\u006fp"}"#, #"{"op":"pop"}}"#, #"{"op":"pop""#, #"{"op":""}"#, #"{"op":"push","screen":}"#,
    #"{"op":"push","screen":"\u0000"}"#,
  ])
  func handWrittenOperationsGiveTheParsedColumns(_ text: String) {
    #expect(Self.columnsAgree(Array(text.utf8)))
  }

  @Test func aScreenNestedToTheParsersLimitIsHandledAsAWhole() {
    // 512 levels parse alone; inside the operation they are one too many.
    let deep = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
    let operation = Array(#"{"op":"push","screen":\#(deep)}"#.utf8)
    #expect((try? JSONParser.parse(deep)) != nil)
    #expect((try? JSONParser.parse(operation)) == nil)
    #expect(Self.columnsAgree(operation))
  }

  @Test func theShortcutReadsTheUsualShapes() {
    #expect(OperationColumns.of(Array(#"{"op":"popToRoot"}"#.utf8)) == (.text("popToRoot"), .null, .text("[]")))
    #expect(
      OperationColumns.of(Array(#"{"op":"push","screen":{"numberDetail":{"number":3}}}"#.utf8))
        == (.text("push"), .text("numberDetail"), .text("[]")))
  }
}
