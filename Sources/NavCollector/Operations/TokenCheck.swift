import Crypto
import NavCore
import NavFleet
import NavPersistence

/// Checks the tokens clients present against the collector's store, and notes when each was
/// last used.
///
/// A token the store found valid is taken again without asking the store for `reuseFor` (a
/// second): a fleet sends one ingest token thousands of times a second, and asking the store
/// each time was a read transaction (on PostgreSQL a round trip) in every upload. A revoked
/// token is therefore refused within a second on every collector. Only tokens found valid are
/// kept, by the SHA-256 of the whole text presented (never the text), so a wrong secret always
/// reaches the store and its guess limit, and what is kept is bounded by the tokens that exist.
struct TokenCheck: Sendable {
  let backend: any FleetBackend
  /// How long a token found valid is taken again without the store.
  let reuseFor: Duration
  /// When each token's use was last written, so a busy token costs one write a minute.
  private let noted = Protected<[String: ContinuousClock.Instant]>([:])
  /// The tokens found valid lately, by the SHA-256 of the text presented, and when.
  private let recent = Protected<[[UInt8]: (token: AccessToken, checked: ContinuousClock.Instant)]>([:])
  /// The most tokens kept at once: past it, the stale ones go (all of them, if none is stale).
  static let kept = 1_024

  /// The tokens kept now.
  var keptCount: Int { recent.withLock { $0.count } }

  /// The clock the while is measured by (a test's can be moved by hand).
  private let now: @Sendable () -> ContinuousClock.Instant

  init(
    backend: any FleetBackend, reuseFor: Duration = .seconds(1),
    now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
  ) {
    self.backend = backend
    self.reuseFor = reuseFor
    self.now = now
  }

  /// The token `presented` is, `nil` when it is none (malformed, unknown, revoked or expired
  /// alike); a store that cannot be read is a 503.
  func authenticate(_ presented: String) async throws -> AccessToken? {
    let key = Array(SHA256.hash(data: Array(presented.utf8)))
    let now = now()
    if let hit = recent.withLock({ $0[key] }), now - hit.checked < reuseFor, hit.token.isValid(at: .now) {
      return hit.token
    }
    let token: AccessToken?
    do {
      token = try await backend.tokens.authenticate(presented, at: .now)
    } catch {
      throw CollectorError.unavailable("The token store cannot be read now", cause: error.description)
    }
    if let token, reuseFor > .zero {
      recent.withLock { recent in
        if recent.count >= Self.kept {
          recent = recent.filter { now - $0.value.checked < reuseFor }
          if recent.count >= Self.kept { recent.removeAll() }
        }
        recent[key] = (token, now)
      }
    } else if token == nil {
      recent.withLock { $0[key] = nil }
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
