@_spi(Internals) import NavCore
import NavTestSupport
import PropertyBased
import Testing

/// A typed state becomes the untyped one the store keeps by mapping its screens to their JSON
/// trees directly; the result, and every refusal, is what writing the state in the wire format
/// and reading it back untyped gives.
@Suite struct UntypedStateTests {
  /// A typed screen that encodes to any JSON: the random trees' screens, typed.
  struct Wrapped: NavigationScreen {
    var json: JSONValue
    init(_ json: JSONValue) { self.json = json }
    init(from decoder: any Decoder) throws { json = try decoder.singleValueContainer().decode(JSONValue.self) }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(json)
    }
  }

  /// A screen whose encoding fails, as one with a time past the year 9999 or an `Encodable`
  /// that throws would.
  struct Unencodable: NavigationScreen {
    struct Refused: Error {}
    var name: String
    init(from decoder: any Decoder) throws { name = try decoder.singleValueContainer().decode(String.self) }
    init(_ name: String) { self.name = name }
    func encode(to encoder: any Encoder) throws {
      guard name != "bad" else {
        throw EncodingError.invalidValue(name, .init(codingPath: encoder.codingPath, debugDescription: "refused"))
      }
      var container = encoder.singleValueContainer()
      try container.encode(name)
    }
  }

  /// The way the store once took a typed state: written, then read back untyped.
  func throughTheWireFormat<Screen>(_ state: Coordinator<Screen>) -> Result<AnyCoordinator, WireFormatError> {
    Result { () throws(WireFormatError) in
      try WireFormat.decode(AnyCoordinator.self, from: try WireFormat.tree(of: state))
    }
  }

  @Test func anyTypedStateMapsToWhatTheWireFormatGives() async {
    await checkProperty(count: 300, input: TreeGen.coordinator(depth: 3)) { untyped in
      let typed = try WireFormat.decode(Coordinator<Wrapped>.self, from: WireFormat.tree(of: untyped))
      #expect(try typed.untyped() == untyped)
      #expect(Result { () throws(WireFormatError) in try typed.untyped() } == throughTheWireFormat(typed))
    }
  }

  @Test func aScreenThatDoesNotEncodeIsNamedWhereTheWireFormatNamesIt() {
    let state = Coordinator<Unencodable>.stack([
      .root(Unencodable("home"), withNavigation: true), .push(Unencodable("list"), child: nil),
      .sheet(
        Unencodable("x"), child: .tabs([.stack([.root(Unencodable("a")), .push(Unencodable("bad"))])], selected: 0)),
    ])
    let direct = Result { () throws(WireFormatError) in try state.untyped() }
    guard case .failure(let error) = direct else {
      Issue.record("a screen that does not encode was taken")
      return
    }
    #expect(error.field == "routes[2].child.tabs[0].routes[1].screen")
    #expect(direct == throughTheWireFormat(state) as Result<AnyCoordinator, WireFormatError>)
  }

  /// JSON nested past what the parser reads is refused, as writing it and reading it back would
  /// refuse it; just under that depth it is taken.
  @Test(arguments: [400, 520, 700])
  func aStateNestedTooDeeplyIsRefusedAsReadingItWould(_ screenDepth: Int) {
    var deep: JSONValue = "leaf"
    for _ in 0..<screenDepth { deep = .array([deep]) }
    let state = Coordinator<Wrapped>.stack([.root(Wrapped("home"), withNavigation: true), .push(Wrapped(deep))])
    let direct = Result { () throws(WireFormatError) in try state.untyped() }
    #expect(direct == throughTheWireFormat(state) as Result<AnyCoordinator, WireFormatError>)
    if screenDepth > 512 { #expect(throws: WireFormatError.self) { try direct.get() } }
    if screenDepth < 500 { #expect(throws: Never.self) { try direct.get() } }
  }

  @Test func aMisshapenTypedStateIsRefusedAsReadingItWould() {
    let state = Coordinator<Unencodable>.stack([.push(Unencodable("home"))])
    let direct = Result { () throws(WireFormatError) in try state.untyped() }
    #expect(throws: WireFormatError.self) { try direct.get() }
    #expect(direct == throughTheWireFormat(state) as Result<AnyCoordinator, WireFormatError>)
  }
}
