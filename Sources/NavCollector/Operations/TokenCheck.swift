import NavPersistence

/// Checks the tokens clients present against the collector's store (the main store file,
/// which keeps every app's tokens).
struct TokenCheck: Sendable {
  let store: SessionStore

  /// The token `presented` is, `nil` when it is none (malformed, unknown, revoked or expired
  /// alike); a store that cannot be read is a 503.
  func authenticate(_ presented: String) async throws -> AccessToken? {
    do {
      return try await store.authenticate(presented)
    } catch {
      throw CollectorError.unavailable("The token store cannot be read now", cause: error.description)
    }
  }
}
