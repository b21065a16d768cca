import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NavCollector
import NavContract
@_spi(Internals) import NavCore
import NavFleet
@_spi(Internals) import NavPersistence
import NavTestSupport
import Testing

/// The collector's clock bounds time: lines dated further ahead of it than it allows are
/// refused (`from-the-future`), and the views support reads (the listing, the console's list,
/// the fleet overview) begin at its clock, so sessions dated ahead, such as a store holds from
/// before the rule, never stand above the fleet's real ones. Live on loopback.
@Suite struct FutureDatesTests {
  let folder: TemporaryFolder
  let fleet: SQLiteFleet
  let ingest: String
  let reader: String

  init() throws {
    folder = try TemporaryFolder()
    fleet = try SQLiteFleet(path: folder.path("collector.sqlite"))
    ingest = try fleet.createToken(app: AppName("shop"), role: .ingest).text
    reader = try fleet.createToken(app: AppName("shop"), role: .read).text
  }

  static func start(_ session: String, at time: String, screen: String) -> String {
    #"{"session":"\#(session)","at":"\#(time)","op":{"op":"start","state":{"routes":[{"screen":"\#(screen)","style":"root","withNavigation":true}]}}}"#
  }

  @Test func linesDatedAheadAreRefusedAndTheViewsReadUpToNow() async throws {
    // A session dated 2099, stored before the rule (written straight into the app's store).
    let stored = try SessionStore(
      path: SQLiteFleet.path(of: try AppName("shop"), inFleetAt: folder.path("collector.sqlite")))
    _ = try await stored.ingest([
      ArraySlice(Self.start("stored-2099", at: "2099-01-01T00:00:00.000Z", screen: "visit-now").utf8)
    ])
    let now = Timestamp.now.rfc3339
    let attack = (0..<2_000).map {
      Self.start(
        "call +1-555-0100 for a refund \($0)", at: "2099-01-01T00:00:00.000Z", screen: "visit evil.example for refund")
    }
    let real = Self.start("real", at: now, screen: "home")
    let app = Application(router: Collector.router(fleet: fleet, configuration: CollectorConfiguration()))
    try await app.test(.live) { client in
      let refused = try await client.execute(
        uri: "/v1/events", method: .post,
        headers: [.authorization: "Bearer \(ingest)", .contentType: "application/x-ndjson"],
        body: ByteBuffer(string: attack.joined(separator: "\n"))
      ) { response in
        #expect(response.status == .ok)
        return try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
      }
      let rejected = refused?["rejected"] as? [[String: Any]] ?? []
      #expect(refused?["accepted"] as? Int == 0 && rejected.count == 2_000)
      #expect(rejected.allSatisfy { $0["reason"] as? String == "from-the-future" })
      try await client.execute(
        uri: "/v1/events", method: .post,
        headers: [.authorization: "Bearer \(ingest)", .contentType: "application/x-ndjson"],
        body: ByteBuffer(string: real)
      ) { #expect($0.status == .ok && String(buffer: $0.body).hasPrefix(#"{"accepted":1,"#)) }

      // The listing, newest first, begins at the collector's clock: the real session first,
      // the one dated 2099 nowhere in it; listed by id, it is there.
      let listing = try await client.execute(
        uri: "/v1/sessions", method: .get, headers: [.authorization: "Bearer \(reader)"]
      ) { String(buffer: $0.body) }
      #expect(listing.contains(#""session":"real""#) && !listing.contains("stored-2099"), "\(listing)")
      let byID = try await client.execute(
        uri: "/v1/sessions?sort=id", method: .get, headers: [.authorization: "Bearer \(reader)"]
      ) { String(buffer: $0.body) }
      #expect(byID.contains("stored-2099"))

      // The console's list and the fleet overview show the fleet as it is.
      let cookie = try await ConsoleTests.signIn(client, with: reader)
      let list = try await client.execute(uri: "/console/sessions", method: .get, headers: [.cookie: cookie]) {
        String(buffer: $0.body)
      }
      #expect(list.contains(">real</a>") && !list.contains("stored-2099") && !list.contains("refund"))
      let overview = try await client.execute(uri: "/console/fleet", method: .get, headers: [.cookie: cookie]) {
        String(buffer: $0.body)
      }
      #expect(overview.contains("From the 1 sessions active since") && !overview.contains("visit-now"))
      #expect(!overview.contains("refund"))
    }
  }

  @Test func theAllowanceIsTheConfigurations() async throws {
    let ahead = Timestamp(millisecondsSince1970: Timestamp.now.millisecondsSince1970 + 3_600_000).rfc3339
    let line = Self.start("an-hour-ahead", at: ahead, screen: "home")
    for (allowance, accepted) in [(Duration.seconds(86_400), true), (.seconds(60), false)] {
      let app = Application(
        router: Collector.router(fleet: fleet, configuration: CollectorConfiguration(maxClockAhead: allowance)))
      try await app.test(.router) { client in
        try await client.execute(
          uri: "/v1/events", method: .post,
          headers: [.authorization: "Bearer \(ingest)", .contentType: "application/x-ndjson"],
          body: ByteBuffer(string: line)
        ) { response in
          let text = String(buffer: response.body)
          #expect(text.contains("from-the-future") != accepted, "\(allowance): \(text)")
        }
      }
    }
  }
}
