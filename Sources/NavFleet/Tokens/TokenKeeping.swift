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

extension SQLiteFleet: TokenKeeping {}
extension PostgresFleet: TokenKeeping {}
