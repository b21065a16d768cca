import Foundation
import NavCore
import NavPersistence
import NavTestSupport
import Testing

/// `SessionStore.restore`: a session recorded by one version of an app, read back by the next.
@Suite struct TypedRestoreTests {
  let folder: TemporaryFolder
  init() throws { folder = try TemporaryFolder() }

  enum ScreenV1: Codable, Hashable, Sendable {
    case home, list
    case detail(id: Int)
    case promo
  }
  enum ScreenV2: Codable, Hashable, Sendable {
    case home, list
    case detail(id: Int)
  }

  func recordedStore() throws -> SessionStore {
    let store = try SessionStore(path: folder.path("s.sqlite"))
    let id = sessionID("v1")
    let time = Timestamp(millisecondsSince1970: 1_795_000_000_000)
    var state: Coordinator<ScreenV1> = .stack([.root(.home, withNavigation: true)])
    try store.record(session: id, from: nil, to: state, at: time)
    for change in [
      { (routes: inout [Route<ScreenV1>]) in try routes.push(.list) },
      { try $0.push(.detail(id: 7)) },
      { try $0.presentSheet(.promo, withNavigation: true) },
      { try $0.push(.detail(id: 8)) },
    ] {
      var routes = state.routes ?? []
      try change(&routes)
      let next = Coordinator.stack(routes)
      try store.record(session: id, from: state, to: next, at: time)
      state = next
    }
    return store
  }

  @Test func theLatestStateComesBackTypedWithTheUndecodableRoutesCut() throws {
    let store = try recordedStore()
    let restored = try store.restore(sessionID("v1"), as: ScreenV2.self)
    #expect(restored.seq == 5)
    #expect(restored.link == SessionLink(session: sessionID("v1"), seq: 5))
    #expect(restored.state == .stack([.root(.home, withNavigation: true), .push(.list), .push(.detail(id: 7))]))
    #expect(restored.dropped.map(\.index) == [3])
    #expect(restored.dropped.first?.removedRouteCount == 2)
    // Before the promo was shown, everything decodes.
    let earlier = try store.restore(sessionID("v1"), as: ScreenV2.self, at: 3)
    #expect(earlier.dropped.isEmpty)
    #expect(earlier.state == .stack([.root(.home, withNavigation: true), .push(.list), .push(.detail(id: 7))]))
    // The version that wrote it reads it all.
    #expect(try store.restore(sessionID("v1"), as: ScreenV1.self).state.routes?.count == 5)
  }

  @Test func strictRestoreAndMissingSessionsAreTypedErrors() throws {
    let store = try recordedStore()
    #expect(throws: StoreError.self) { try store.restore(sessionID("v1"), as: ScreenV2.self, policy: .strict) }
    do {
      _ = try store.restore(sessionID("v1"), as: ScreenV2.self, policy: .strict)
    } catch {
      guard case .cannotRestore(_, let seq, .undecodableScreen(let route)) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(seq == 5 && route.index == 3 && route.screenName == "promo")
      #expect("\(error)".contains("route 3 (promo)"))
    }
    #expect(throws: StoreError.unknownSession(sessionID("nope"))) {
      try store.restore(sessionID("nope"), as: ScreenV2.self)
    }
  }
}
