import Foundation
import NavCore
import NavPersistence
import NavTestSupport
import Testing

/// The documented limits work at their edge, and past them input is refused with a message.
@Suite struct LimitsTests {
  let folder: TemporaryFolder
  init() throws { folder = try TemporaryFolder() }

  @Test func aScreenOfOneMebibyteIsStoredAndReadBack() throws {
    let store = try SessionStore(path: folder.path("big.sqlite"), options: StoreOptions(snapshotInterval: 2))
    let text = String(repeating: "navigation ", count: (1 << 20) / 11)
    let screen: JSONValue = ["document": .string(text)]
    try store.append(event("s", .start(.stack(stack("R+")))))
    try store.append(event("s", .presentSheet(screen)))
    try store.append(event("s", .updateScreen(index: 1, screen: ["document": .string(text + "!")])))
    #expect(try store.state(of: sessionID("s"), at: 2).state.routes?.last?.screen == screen)
    #expect(try store.verify().allSatisfy(\.isIntact))
  }

  @Test func aTreeFiftyDeepIsStoredAndReadBack() throws {
    var tree: AnyCoordinator = .stack(stack("R+leaf"))
    for level in 0..<50 {
      tree =
        level.isMultiple(of: 5)
        ? .tabs([tree, .stack(stack("R"))], selected: 0)
        : .stack([.root(.number(Double(level)), withNavigation: true), .sheet("host", child: tree)])
    }
    let store = try SessionStore(path: folder.path("deep.sqlite"))
    try store.append(event("s", .start(tree)))
    var path: [PathStep] = []
    var current = tree
    while true {
      switch current {
      case .tabs(let tabs, _):
        path.append(.tab(0))
        current = tabs[0]
        continue
      case .stack(let routes):
        if let child = routes.last?.child {
          path.append(.route(routes.count - 1))
          current = child
          continue
        }
      }
      break
    }
    try store.append(event("s", .push("deepest", at: CoordinatorPath(path))))
    let state = try store.state(of: sessionID("s")).state
    #expect(state.visibleScreen?.name == "deepest")
    #expect(try store.verify().allSatisfy(\.isIntact))
  }

  @Test func aTreeDeeperThanTheParserAllowsIsRefusedWithAMessage() throws {
    var text = #"{"routes":[{"style":"root","screen":"leaf"}]}"#
    for _ in 0..<200 { text = #"{"routes":[{"style":"root","screen":"x","child":\#(text)}]}"# }
    #expect {
      try WireFormat.decode(AnyCoordinator.self, from: text)
    } throws: { error in
      "\(error)".contains("nesting deeper than 512 levels")
    }
  }

  @Test func sessionIDsAtTheLengthLimit() throws {
    let store = try SessionStore(path: folder.path("ids.sqlite"))
    let longest = String(repeating: "s", count: SessionID.maximumLength)
    try store.append(event(longest, .start(.stack(stack("R")))))
    #expect(try store.sessions().map(\.id.rawValue) == [longest])
    #expect(throws: SessionIDError.self) { try SessionID(longest + "s") }
  }
}
