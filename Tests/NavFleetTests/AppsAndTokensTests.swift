import Foundation
import NavCore
import NavFleet
@_spi(Internals) import NavPersistence
import NavTestSupport
import Testing

/// Apps as namespaces (the same session id in two apps is two sessions, each app a file of its
/// own), and the collector's tokens (hashed at rest, one app and one role each, revocable).
@Suite struct AppsAndTokensTests {
  let folder: TemporaryFolder
  init() throws { folder = try TemporaryFolder() }

  static let home = AnyCoordinator.stack(stack("R+home"))

  @Test func theSameSessionIdInTwoAppsIsTwoSessions() throws {
    let store = try SQLiteFleet(path: folder.path("c.sqlite"))
    let shop = try store.store(of: AppName("shop"))
    let blog = try store.store(of: AppName("blog"))
    try shop.append(event("s", .start(Self.home)))
    try shop.append(event("s", .push(["screen": "cart"]), offset: 10))
    try blog.append(event("s", .start(Self.home)))
    #expect(try shop.summary(of: sessionID("s")).eventCount == 2)
    #expect(try blog.summary(of: sessionID("s")).eventCount == 1)
    #expect(throws: StoreError.unknownSession(sessionID("s"))) { try store.main.summary(of: sessionID("s")) }
    #expect(try store.apps() == [.default, AppName("blog"), AppName("shop")])
    #expect(store.path(of: try AppName("shop")) == folder.path("c.apps/shop.sqlite"))
    #expect(try store.store(of: .default) === store.main)
    #expect(try shop.verify().allSatisfy(\.isIntact) && blog.verify().allSatisfy(\.isIntact))
    // Forgetting one app's session leaves the other's.
    try shop.forget([sessionID("s")], at: Timestamp(millisecondsSince1970: 1_795_000_100_000))
    #expect(try blog.summary(of: sessionID("s")).eventCount == 1)
  }

  @Test func aReadOnlyStoreOpensOnlyTheAppsItHas() throws {
    let path = folder.path("r.sqlite")
    try SQLiteFleet(path: path).store(of: AppName("shop")).append(event("s", .start(Self.home)))
    let readOnly = try SQLiteFleet(path: path, options: StoreOptions(access: .readOnly))
    #expect(try readOnly.store(of: AppName("shop")).summary(of: sessionID("s")).eventCount == 1)
    #expect(throws: FleetError.unknownApp(try AppName("blog"))) { try readOnly.store(of: AppName("blog")) }
    #expect(!FileManager.default.fileExists(atPath: folder.path("r.apps/blog.sqlite")), "nothing created")
  }

  @Test(arguments: ["", "Shop", "-shop", ".x", "a/b", "a b", String(repeating: "a", count: 65), "é"])
  func aNameThatIsNotAFileNameIsRefused(name: String) {
    #expect(throws: AppNameError.self) { try AppName(name) }
  }

  @Test(arguments: ["shop", "a", "9", "com.example.shop", "my_app-2", String(repeating: "a", count: 64)])
  func aNameOfLettersDigitsAndDotsIsAccepted(name: String) throws {
    #expect(try AppName(name).rawValue == name)
  }

  @Test func aTokenAuthenticatesUntilItIsRevokedAndOnlyItsHashIsKept() throws {
    let path = folder.path("t.sqlite")
    let store = try SQLiteFleet(path: path)
    let made = try store.createToken(app: AppName("shop"), role: .ingest)
    let other = try store.createToken(app: AppName("shop"), role: .read)
    #expect(made.text.hasPrefix("nvs_") && made.text.count == 4 + 16 + 1 + 64)
    #expect(try store.authenticate(made.text) == made.token)
    #expect(try store.authenticate(other.text)?.role == .read)
    #expect(Set(try store.tokens().map(\.id)) == [made.token.id, other.token.id])
    // The secret is nowhere in the file or its write-ahead log.
    let secret = Array(made.text.suffix(64).utf8)
    for file in [path, path + "-wal"] {
      let bytes = Array(FileManager.default.contents(atPath: file) ?? Data())
      #expect(!bytes.indices.contains { bytes[$0...].starts(with: secret) }, "\(file)")
    }
    // A wrong secret, another shape, or a revoked token authenticate nothing.
    var wrong = Array(made.text)
    wrong[wrong.count - 1] = wrong[wrong.count - 1] == "0" ? "1" : "0"
    for presented in [String(wrong), "", "Bearer " + made.text, made.text.uppercased(), String(made.text.dropLast())] {
      #expect(try store.authenticate(presented) == nil, "\(presented)")
    }
    let revoked = try store.revokeToken(made.token.id)
    #expect(revoked.revokedAt != nil)
    #expect(try store.authenticate(made.text) == nil)
    #expect(try store.authenticate(other.text) != nil, "the other token still works")
    #expect(try store.revokeToken(made.token.id).revokedAt == revoked.revokedAt, "the first revocation stands")
    #expect(throws: FleetError.unknownToken("0000000000000000")) { try store.revokeToken("0000000000000000") }
  }

  @Test func aDevicesStoreHasNoCollectorTable() throws {
    let path = folder.path("device.sqlite")
    let device = try SessionStore(path: path)
    try device.append(event("s", .start(Self.home)))
    let connection = try SQLiteConnection(path: path, mode: .readOnly)
    let tables = try connection.text(
      "SELECT group_concat(name, ' ') FROM sqlite_master WHERE type = 'table' AND name IN "
        + "('apps', 'tokens', 'collector_apps', 'collector_tokens', 'collector_migrations')")
    #expect(tables == nil, "found \(tables ?? "")")
    // A collector made on the same file has its tables from then on; the device's sessions stay.
    let fleet = try SQLiteFleet(path: path)
    _ = try fleet.createToken(app: .default, role: .read)
    #expect(try fleet.tokens().count == 1)
    #expect(try fleet.main.summary(of: sessionID("s")).eventCount == 1)
  }

  @Test func aReadOnlyOpenOfAStoreNoCollectorUsedHasNoTokenAndOnlyTheDefaultApp() throws {
    let path = folder.path("plain.sqlite")
    try SessionStore(path: path).append(event("s", .start(Self.home)))
    let fleet = try SQLiteFleet(path: path, options: StoreOptions(access: .readOnly))
    #expect(try fleet.tokens().isEmpty)
    #expect(try fleet.apps() == [.default])
    #expect(
      try fleet.authenticate("nvs_" + String(repeating: "0", count: 16) + "_" + String(repeating: "0", count: 64))
        == nil)
  }

  @Test func aTokenLabelIsCheckedAndTheTokenMadeOnlyWhenItHolds() throws {
    let store = try SQLiteFleet(path: folder.path("l.sqlite"))
    for label in ["", String(repeating: "x", count: 257), "tab\there"] {
      #expect(throws: FleetError.self) { try store.createToken(app: AppName("shop"), role: .read, label: label) }
    }
    #expect(try store.tokens().isEmpty)
    let made = try store.createToken(app: AppName("shop"), role: .read, label: "support: Ana")
    #expect(try store.tokens().map(\.label) == ["support: Ana"])
    #expect(made.token.label == "support: Ana")
  }
}
