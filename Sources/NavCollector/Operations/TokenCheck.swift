import NavCore
import NavFleet
import NavPersistence

/// Checks the tokens clients present against the collector's store, and notes when each was
/// last used.
struct TokenCheck: Sendable {
  let backend: any FleetBackend
  /// When each token's use was last written, so a busy token costs one write a minute.
  private let noted = Protected<[String: ContinuousClock.Instant]>([:])

  init(backend: any FleetBackend) { self.backend = backend }

  /// The token `presented` is, `nil` when it is none (malformed, unknown, revoked or expired
  /// alike); a store that cannot be read is a 503.
  func authenticate(_ presented: String) async throws -> AccessToken? {
    let token: AccessToken?
    do {
      token = try await backend.tokens.authenticate(presented, at: .now)
    } catch {
      throw CollectorError.unavailable("The token store cannot be read now", cause: error.description)
    }
    return token
  }

  /// The token the console's pass `text` signs in with, `nil` when none; a store that cannot be
  /// read is a 503.
  func authenticate(consolePass text: String) async throws -> AccessToken? {
    guard let pass = ConsolePass(text) else { return nil }
    do {
      return try await backend.tokens.authenticate(pass, at: .now)
    } catch {
      throw CollectorError.unavailable("The token store cannot be read now", cause: error.description)
    }
  }

  /// Writes the token's last use, at most once a minute per token: a use that cannot be written
  /// is not the request's failure. The request runs meanwhile (`TokenAuthenticator`), so no
  /// task outlives the request that wrote it; the one request a minute that writes it answers
  /// once the write is done, which can wait for an upload's commit on the main store.
  func noteUse(_ id: String) async {
    let now = ContinuousClock.now
    let due = noted.withLock { noted in
      if let last = noted[id], now - last < .seconds(60) { return false }
      // Tokens are few (the operator makes each): the map stays small.
      noted[id] = now
      return true
    }
    guard due else { return }
    try? await backend.tokens.noteTokenUse(id, at: .now)
  }
}
