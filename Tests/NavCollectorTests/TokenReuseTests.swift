import Foundation
import Logging
import NavCore
import NavFleet
import NavTestSupport
import Testing

@testable import NavCollector

/// A token found valid is taken again without the store for a short while, and no longer: a
/// revocation reaches it once that while is over; a wrong secret, or a token the store refused,
/// is never taken from what was kept; and the kept tokens stay bounded.
@Suite struct TokenReuseTests {
  let folder: TemporaryFolder
  let fleet: SQLiteFleet
  let backend: SQLiteBackend

  init() throws {
    folder = try TemporaryFolder()
    fleet = try SQLiteFleet(path: folder.path("collector.sqlite"))
    backend = SQLiteBackend(fleet: fleet, logger: Logger(label: "test"))
  }

  @Test func aRevokedTokenIsRefusedOnceItsWhileIsOver() async throws {
    let made = try fleet.createToken(app: AppName("shop"), role: .ingest)
    let start = ContinuousClock.now
    let elapsed = Protected(Duration.zero)
    let check = TokenCheck(backend: backend, reuseFor: .seconds(1)) { start + elapsed.withLock { $0 } }
    #expect(try await check.authenticate(made.text)?.id == made.token.id)
    _ = try fleet.revokeToken(made.token.id)
    // Within the while: taken again as it was found (the store is not asked).
    elapsed.withLock { $0 = .milliseconds(999) }
    #expect(try await check.authenticate(made.text)?.id == made.token.id)
    elapsed.withLock { $0 = .seconds(1) }
    #expect(try await check.authenticate(made.text) == nil)
    // Refused by the store, it is not kept either.
    #expect(try await check.authenticate(made.text) == nil)
  }

  @Test func withoutAWhileEveryCheckAsksTheStore() async throws {
    let made = try fleet.createToken(app: AppName("shop"), role: .read)
    let check = TokenCheck(backend: backend, reuseFor: .zero)
    #expect(try await check.authenticate(made.text) != nil)
    _ = try fleet.revokeToken(made.token.id)
    #expect(try await check.authenticate(made.text) == nil)
  }

  @Test func aWrongSecretIsNeverTakenFromWhatWasKept() async throws {
    let made = try fleet.createToken(app: AppName("shop"), role: .ingest)
    let check = TokenCheck(backend: backend, reuseFor: .seconds(60))
    #expect(try await check.authenticate(made.text) != nil)
    let id = made.token.id
    for index in 0..<20 {
      let forged = "nvs_\(id)_" + String(format: "%064x", index)
      #expect(try await check.authenticate(forged) == nil, "\(forged)")
    }
    #expect(try await check.authenticate(made.text)?.id == id)
  }

  @Test func theKeptTokensStayBounded() async throws {
    let check = TokenCheck(backend: backend, reuseFor: .seconds(60))
    let tokens = try (0..<(TokenCheck.kept + 10)).map { _ in try fleet.createToken(app: AppName("shop"), role: .read) }
    for made in tokens { #expect(try await check.authenticate(made.text) != nil) }
    #expect(check.keptCount <= TokenCheck.kept)
    // Each is still its own token, kept or asked again.
    for made in tokens.suffix(20) { #expect(try await check.authenticate(made.text)?.id == made.token.id) }
  }
}
