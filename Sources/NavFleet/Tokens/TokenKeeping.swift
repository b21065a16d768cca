import NavCore

/// A fleet store's tokens, whatever engine keeps them (`SQLiteFleet`, `PostgresFleet`): what
/// `navstore token` makes, lists and revokes, through one door whichever `--db` names.
package protocol TokenKeeping: Sendable {
  /// Makes a token for `app` with `role` (and the app, when it is new); returns its text, shown
  /// this once.
  func createToken(app: AppName, role: TokenRole, label: String?, expiresAt: Timestamp?, at time: Timestamp)
    async throws(FleetError) -> (text: String, token: AccessToken)
  /// Every token, without its secret.
  func tokens() async throws(FleetError) -> [AccessToken]
  /// Revokes a token: it authenticates nothing from `time` on.
  func revokeToken(_ id: String, at time: Timestamp) async throws(FleetError) -> AccessToken
}

/// A fleet store's tokens as the collector checks them on every request, whatever engine keeps
/// them: the backend hands out its fleet's (`FleetBackend.tokens`), so the checks are the
/// engine's own, with nothing in between.
package protocol TokenChecking: Sendable {
  /// The token `presented` is at `time`, `nil` when it is none (malformed, unknown, revoked or
  /// expired alike).
  func authenticate(_ presented: String, at time: Timestamp) async throws(FleetError) -> AccessToken?
  /// The token a console pass signs in with at `time`, `nil` when none (unknown, ended, signed
  /// out, or its token revoked, expired or gone).
  func authenticate(_ pass: ConsolePass, at time: Timestamp) async throws(FleetError) -> AccessToken?
  /// A new console pass for the read token `token` (a sign-in at `time`), kept by the store.
  func openPass(for token: AccessToken, at time: Timestamp) async throws(FleetError) -> ConsolePass
  /// Ends a console pass (a sign-out).
  func endPass(_ pass: ConsolePass) async throws(FleetError)
  /// Notes a token's use at `time` (the collector asks at most once a minute per token).
  func noteTokenUse(_ id: String, at time: Timestamp) async throws(FleetError)
}

extension SQLiteFleet: TokenKeeping, TokenChecking {}
#if Collector
extension PostgresFleet: TokenKeeping, TokenChecking {}
#endif
