import Foundation
import NavTestSupport
import Testing

/// `navstore token` and `--app`: a token printed once and alone, listed without its secret,
/// revoked; the same session id in two apps of one store, and an app a read cannot find.
@Suite(.waitsOnProcesses) struct TokenAndAppCommandTests: CommandSuite {
  let folder: URL
  /// Removed, with what the test wrote, when the test ends.
  let temporary: TemporaryFolder

  init() throws {
    temporary = try TemporaryFolder()
    folder = temporary.url
  }

  @Test func aTokenIsPrintedOnceListedWithoutItsSecretAndRevoked() throws {
    let made = try navstore("token", "create", "--app", "shop", "--role", "ingest", "--db", "c.sqlite")
    #expect(made.status == 0, "\(made.stderr)")
    let token = try #require(made.stdoutLines.first)
    #expect(made.stdoutLines.count == 1 && token.hasPrefix("nvs_") && token.count == 85)
    let id = String(token.dropFirst(4).prefix(16))
    #expect(made.stderrLines == ["navstore: token \(id) for app shop, role ingest; keep it secret"])
    let listed = try navstore("token", "list", "--db", "c.sqlite")
    #expect(listed.stdoutLines.count == 2 && listed.stdoutLines[1].hasPrefix("\(id)  shop  ingest  "))
    #expect(!listed.stdout.contains(String(token.suffix(64))))
    let revoked = try navstore("token", "revoke", id, "--db", "c.sqlite")
    #expect(revoked.stdoutLines == ["revoked \(id) (app shop, role ingest)"])
    let json = try navstore("token", "list", "--json", "--db", "c.sqlite")
    #expect(json.stdout.contains(#""id":"\#(id)""#) && !json.stdout.contains(#""revoked_at":null"#))
    let unknown = try navstore("token", "revoke", "0000000000000000", "--db", "c.sqlite")
    #expect(unknown.status != 0)
    #expect(
      unknown.stderrLines == [
        "navstore: no token '0000000000000000' in the store (list them with 'navstore token list')"
      ])
    let badRole = try navstore("token", "create", "--app", "shop", "--role", "admin", "--db", "c.sqlite")
    #expect(badRole.status != 0 && badRole.stderr.contains("--role"))
  }

  @Test func twoAppsKeepTheSameSessionIdApart() throws {
    let at = "2026-11-21T10:00:00.000Z"
    let start = #"{"op":"start","state":{"routes":[{"screen":"home","style":"root","withNavigation":true}]}}"#
    #expect(try navstore("append", "s-1", "--op", start, "--at", at, "--db", "c.sqlite", "--app", "shop").status == 0)
    #expect(
      try navstore("append", "s-1", "--op", #"{"op":"push","screen":"cart"}"#, "--db", "c.sqlite", "--app", "shop")
        .status == 0)
    #expect(try navstore("append", "s-1", "--op", start, "--at", at, "--db", "c.sqlite", "--app", "blog").status == 0)
    let shop = try navstore("history", "s-1", "--json", "--db", "c.sqlite", "--app", "shop")
    let blog = try navstore("history", "s-1", "--json", "--db", "c.sqlite", "--app", "blog")
    #expect(shop.stdoutLines.count == 2 && blog.stdoutLines.count == 1)
    #expect(shop.stdoutLines.first == blog.stdoutLines.first, "the same event, hashed the same, in each app")
    let own = try navstore("sessions", "--db", "c.sqlite")
    #expect(own.stdoutLines == ["no sessions yet (add one with 'navstore append' or 'navstore import')"])
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("c.apps/shop.sqlite").path))
    let missing = try navstore("sessions", "--db", "c.sqlite", "--app", "nope")
    #expect(missing.status != 0)
    #expect(missing.stderrLines.first?.hasPrefix("navstore: no app 'nope' in the store") == true)
    let badName = try navstore("sessions", "--db", "c.sqlite", "--app", "Shop")
    #expect(badName.status != 0 && badName.stderr.contains("'Shop' is not an app name"))
  }
}
