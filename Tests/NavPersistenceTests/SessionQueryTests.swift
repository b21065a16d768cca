import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
import PropertyBased
import Testing

/// The listing's filters and orders against a model: random sessions with random contexts and
/// times, random queries, and the store's answer equal to filtering and sorting the sessions as
/// plain values.
@Suite struct SessionQueryTests {
  struct Fleet {
    var sessions: [(id: String, first: Int64, last: Int64, context: SessionContext?)]
  }

  static let versions = ["2.3.0", "2.3.1"]
  static let systems = ["iOS", "macOS"]
  static let devices = ["iPhone15,2", "iPad14,1"]

  static let fleets = Generator<Fleet, Shrink.None<Fleet>> { rng in
    Fleet(
      sessions: (0..<Int.random(in: 1...25, using: &rng)).map { index in
        let first = Int64.random(in: 0...100, using: &rng) * 1000
        let context: SessionContext? =
          Bool.random(using: &rng) && Bool.random(using: &rng)
          ? nil
          : SessionContext(
            appVersion: versions.randomElement(using: &rng), osName: systems.randomElement(using: &rng),
            deviceModel: Bool.random(using: &rng) ? devices.randomElement(using: &rng) : nil,
            userID: "u\(Int.random(in: 0...3, using: &rng))")
        return ("s\(index)", first, first + Int64.random(in: 0...3, using: &rng) * 1000, context)
      })
  }

  static func at(_ milliseconds: Int64) -> Timestamp {
    Timestamp(millisecondsSince1970: 1_795_000_000_000 + milliseconds)
  }

  @Test func theStoreKeepsAndOrdersWhatTheModelDoes() async {
    await checkProperty(count: 60, input: Self.fleets) { fleet in
      let folder = try TemporaryFolder()
      let store = try SessionStore(path: folder.path("q.sqlite"))
      for session in fleet.sessions {
        try store.append(
          AnyEvent(
            session: try SessionID(session.id), at: Self.at(session.first),
            operation: .start(.stack(stack("R+home")), context: session.context)))
        if session.last > session.first {
          try store.append(
            AnyEvent(session: try SessionID(session.id), at: Self.at(session.last), operation: .push("detail")))
        }
      }
      var random = SeededRandom(seed: UInt64(fleet.sessions.count))
      for _ in 0..<20 {
        var query = SessionQuery()
        if Bool.random(using: &random) { query.since = Self.at(Int64.random(in: 0...100, using: &random) * 1000) }
        if Bool.random(using: &random) { query.until = Self.at(Int64.random(in: 0...100, using: &random) * 1000) }
        if Bool.random(using: &random) { query.appVersion = Self.versions.randomElement(using: &random) }
        if Bool.random(using: &random) { query.osName = Self.systems.randomElement(using: &random) }
        if Bool.random(using: &random) { query.deviceModel = Self.devices.randomElement(using: &random) }
        if Bool.random(using: &random) { query.userID = "u\(Int.random(in: 0...3, using: &random))" }
        query.order = Bool.random(using: &random) ? .id : .lastActivity

        // The model: plain filtering and sorting of the values put in.
        var expected = fleet.sessions.filter { session in
          (query.since.map { session.last >= $0.millisecondsSince1970 - 1_795_000_000_000 } ?? true)
            && (query.until.map { session.first <= $0.millisecondsSince1970 - 1_795_000_000_000 } ?? true)
            && (query.appVersion.map { $0 == session.context?.appVersion } ?? true)
            && (query.osName.map { $0 == session.context?.osName } ?? true)
            && (query.deviceModel.map { $0 == session.context?.deviceModel } ?? true)
            && (query.userID.map { $0 == session.context?.userID } ?? true)
        }
        switch query.order {
        case .id: expected.sort { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        case .lastActivity:
          expected.sort { $0.last != $1.last ? $0.last > $1.last : $1.id.utf8.lexicographicallyPrecedes($0.id.utf8) }
        }
        var listed: [String] = []
        try store.forEachSession(matching: query) { session in
          listed.append(session.id.rawValue)
          return true
        }
        #expect(listed == expected.map(\.id), "\(query)")
        // A limit stops the listing after that many.
        var firstTwo: [String] = []
        try store.forEachSession(matching: query) { session in
          firstTwo.append(session.id.rawValue)
          return firstTwo.count < 2
        }
        #expect(firstTwo == Array(expected.map(\.id).prefix(2)))
      }
    }
  }

  @Test func aScreenShownOnTopIsFoundAndOneNeverOnTopIsNot() throws {
    let folder = try TemporaryFolder()
    let store = try SessionStore(path: folder.path("q.sqlite"))
    try store.append(event("s", .start(.stack(stack("R+home")))))
    try store.append(event("s", .push("detail"), offset: 1))
    try store.append(event("s", .pop(), offset: 2))
    try store.append(event("t", .start(.stack(stack("R+home", "◻+settings")))))
    #expect(try store.showedScreen(named: "detail", in: sessionID("s")))
    #expect(try store.showedScreen(named: "home", in: sessionID("s")))
    #expect(try !store.showedScreen(named: "home", in: sessionID("t")), "home was only ever under the sheet")
    #expect(try store.showedScreen(named: "settings", in: sessionID("t")))
  }
}
