import Foundation
import NavCore
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
    let store = try SessionStore(path: folder.path("c.sqlite"))
    let shop = try store.app(AppName("shop"))
    let blog = try store.app(AppName("blog"))
    try shop.append(event("s", .start(Self.home)))
    try shop.append(event("s", .push(["screen": "cart"]), offset: 10))
    try blog.append(event("s", .start(Self.home)))
    #expect(try shop.summary(of: sessionID("s")).eventCount == 2)
    #expect(try blog.summary(of: sessionID("s")).eventCount == 1)
    #expect(throws: StoreError.unknownSession(sessionID("s"))) { try store.summary(of: sessionID("s")) }
    #expect(try store.apps() == [.default, AppName("blog"), AppName("shop")])
    #expect(store.path(of: try AppName("shop")) == folder.path("c.apps/shop.sqlite"))
    #expect(try store.app(.default) === store)
    #expect(try shop.verify().allSatisfy(\.isIntact) && blog.verify().allSatisfy(\.isIntact))
    // Forgetting one app's session leaves the other's.
    try shop.forget([sessionID("s")], at: Timestamp(millisecondsSince1970: 1_795_000_100_000))
    #expect(try blog.summary(of: sessionID("s")).eventCount == 1)
  }

  @Test func aReadOnlyStoreOpensOnlyTheAppsItHas() throws {
    let path = folder.path("r.sqlite")
    try SessionStore(path: path).app(AppName("shop")).append(event("s", .start(Self.home)))
    let readOnly = try SessionStore(path: path, options: StoreOptions(access: .readOnly))
    #expect(try readOnly.app(AppName("shop")).summary(of: sessionID("s")).eventCount == 1)
    #expect(throws: StoreError.unknownApp(try AppName("blog"))) { try readOnly.app(AppName("blog")) }
    #expect(!FileManager.default.fileExists(atPath: folder.path("r.apps/blog.sqlite")), "nothing created")
    let inMemory = try SessionStore(path: ":memory:")
    #expect(throws: StoreError.unknownApp(try AppName("shop"))) { try inMemory.app(AppName("shop")) }
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
    let store = try SessionStore(path: path)
    let made = try store.createToken(app: AppName("shop"), role: .ingest)
    let other = try store.createToken(app: AppName("shop"), role: .read)
    #expect(made.text.hasPrefix("nvs_") && made.text.count == 4 + 16 + 1 + 64)
    #expect(try store.authenticate(made.text) == made.token)
    #expect(try store.authenticate(other.text)?.role == .read)
    #expect(Set(try store.tokens().map(\.id)) == [made.token.id, other.token.id])
    // The secret is nowhere in the file.
    let secret = String(made.text.suffix(64))
    #expect(!(try dump(path)).contains(secret))
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
    #expect(throws: StoreError.unknownToken("0000000000000000")) { try store.revokeToken("0000000000000000") }
  }

  @Test func constantTimeEqualityIsEquality() {
    #expect(SessionStore.constantTimeEqual([1, 2, 3], [1, 2, 3]))
    #expect(!SessionStore.constantTimeEqual([1, 2, 3], [1, 2, 4]))
    #expect(!SessionStore.constantTimeEqual([1, 2, 3], [1, 2]))
  }
}
