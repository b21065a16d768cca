#if Collector
import NavCore
@_spi(Internals) import NavHistory
import PostgresNIO

extension PostgresFleet {
  /// Makes `app` when the database does not have it yet.
  package func createApp(_ app: AppName, at time: Timestamp = Timestamp.now) async throws(FleetError) {
    try await transaction { connection in
      try await connection.run(
        """
        INSERT INTO apps (name, created_at) VALUES (\(app.rawValue), \(time.millisecondsSince1970))
          ON CONFLICT (name) DO NOTHING
        """, logger: self.logger)
    }
  }

  /// Whether the database answers within `timeout`: what `/readyz` asks.
  package func ping(timeout: Duration = .seconds(2)) async throws(FleetError) {
    _ = try await database(timeout: timeout) {
      try await self.client.withConnection { connection in
        try await connection.run("SELECT 1", logger: self.logger)
      }
    }
  }

  /// Throws `unknownApp` unless the database has `app`.
  package func requireApp(_ app: AppName) async throws(FleetError) {
    let known = try await database {
      let rows = try await self.client.query(
        "SELECT 1 FROM apps WHERE name = \(app.rawValue)", logger: self.logger)
      for try await _ in rows.decode(Int32.self) { return true }
      return false
    }
    guard known else { throw .unknownApp(app) }
  }

  /// Every app, by name.
  package func apps() async throws(FleetError) -> [AppName] {
    return try await database {
      var apps: [AppName] = []
      for try await name in try await self.client.query("SELECT name FROM apps ORDER BY name", logger: self.logger)
        .decode(
          String.self)
      {
        if let app = try? AppName(name) { apps.append(app) }
      }
      return apps
    }
  }

  /// Makes a token for `app` with `role` (and the app, when it is new), and returns its text,
  /// shown this once: the database keeps its id and the SHA-256 of its secret.
  package func createToken(
    app: AppName, role: TokenRole, label: String? = nil, expiresAt: Timestamp? = nil, at time: Timestamp = Timestamp.now
  ) async throws(FleetError) -> (text: String, token: AccessToken) {
    if let label {
      do {
        _ = try TokenLabelError.check(label)
      } catch {
        throw .invalidTokenLabel(reason: error.reason)
      }
    }
    let presented = PresentedToken.random()
    let token = AccessToken(
      id: presented.id, app: app, role: role, createdAt: time, revokedAt: nil, label: label, expiresAt: expiresAt)
    try await transaction { connection in
      try await connection.run(
        """
        INSERT INTO apps (name, created_at) VALUES (\(app.rawValue), \(time.millisecondsSince1970))
          ON CONFLICT (name) DO NOTHING
        """, logger: self.logger)
      try await connection.run(
        """
        INSERT INTO tokens (id, app, role, secret_hash, created_at, label, expires_at)
          VALUES (\(token.id), \(app.rawValue), \(role.rawValue), \(ByteBuffer(bytes: presented.secretHash)),
            \(time.millisecondsSince1970), \(label), \(expiresAt?.millisecondsSince1970))
        """, logger: self.logger)
    }
    return (presented.text, token)
  }

  /// Every token, revoked ones included, oldest first.
  package func tokens() async throws(FleetError) -> [AccessToken] {
    return try await database {
      var tokens: [AccessToken] = []
      let rows = try await self.client.query(
        "SELECT \(unescaped: TokenRow.selectList) FROM tokens ORDER BY created_at, id", logger: self.logger)
      for try await row in rows.decode(TokenRow.Columns.self) {
        if let token = TokenRow(row).token { tokens.append(token) }
      }
      return tokens
    }
  }

  /// Revokes the token `id`: it authenticates nothing from now on (a token revoked before keeps
  /// its first revocation time). Throws `unknownToken` when there is none.
  @discardableResult
  package func revokeToken(_ id: String, at time: Timestamp = Timestamp.now) async throws(FleetError) -> AccessToken {
    let revoked = try await transaction { connection -> AccessToken? in
      let rows = try await connection.query(
        """
        UPDATE tokens SET revoked_at = coalesce(revoked_at, \(time.millisecondsSince1970)) WHERE id = \(id)
          RETURNING \(unescaped: TokenRow.selectList)
        """, logger: self.logger)
      for try await row in rows.decode(TokenRow.Columns.self) { return TokenRow(row).token }
      return nil
    }
    guard let revoked else { throw .unknownToken(id) }
    return revoked
  }

  /// The token `presented` is, when it is one of this database's, not revoked and not expired
  /// at `time`; `nil` otherwise, whatever the reason. The secret's hash is compared in constant
  /// time, after a lookup by the public id only.
  package func authenticate(_ presented: String, at time: Timestamp = Timestamp.now) async throws(FleetError)
    -> AccessToken?
  {
    guard let parts = PresentedToken(presented) else { return nil }
    let stored = try await storedToken(parts.id)
    // The secret is hashed and compared whether or not the id is known (see SQLiteFleet's).
    let matches = PresentedToken.constantTimeEqual(stored?.secretHash ?? PresentedToken.noHash, parts.secretHash)
    guard let stored, let token = stored.token, matches, token.isValid(at: time) else { return nil }
    return token
  }

  /// Opens a console pass for `token` at `time`, ending a working day later: stored, with the
  /// token's passes that have ended deleted, and its oldest ended past `openPerToken`.
  package func openPass(for token: AccessToken, at time: Timestamp = Timestamp.now) async throws(FleetError)
    -> ConsolePass
  {
    let pass = ConsolePass.make()
    let now = time.millisecondsSince1970
    let endsAt = now + ConsolePass.lifetimeMilliseconds
    let keep = Int64(ConsolePass.openPerToken - 1)
    try await transaction { connection in
      try await connection.run(
        """
        DELETE FROM console_passes WHERE token_id = \(token.id) AND (ends_at <= \(now) OR id NOT IN (
          SELECT id FROM console_passes WHERE token_id = \(token.id) ORDER BY ends_at DESC LIMIT \(keep)))
        """, logger: self.logger)
      try await connection.run(
        """
        INSERT INTO console_passes (id, token_id, secret_hash, ends_at)
          VALUES (\(pass.id), \(token.id), \(ByteBuffer(bytes: pass.secretHash)), \(endsAt))
        """, logger: self.logger)
    }
    return pass
  }

  /// Ends a console pass (a sign-out): it signs in with nothing from now on. A pass whose secret
  /// is not the stored one ends nothing.
  package func endPass(_ pass: ConsolePass) async throws(FleetError) {
    try await transaction { connection in
      try await connection.run(
        "DELETE FROM console_passes WHERE id = \(pass.id) AND secret_hash = \(ByteBuffer(bytes: pass.secretHash))",
        logger: self.logger)
    }
  }

  /// The token a console pass signs in with at `time` (see `ConsolePass`), `nil` when it signs
  /// in with none (unknown, ended, signed out, or its token revoked, expired or gone).
  package func authenticate(_ pass: ConsolePass, at time: Timestamp = Timestamp.now) async throws(FleetError)
    -> AccessToken?
  {
    let stored = try await database { () async throws -> (TokenRow, [UInt8], Int64)? in
      let rows = try await self.client.query(
        """
        SELECT \(unescaped: TokenRow.selectList(of: "t")), p.secret_hash, p.ends_at
          FROM console_passes AS p JOIN tokens AS t ON t.id = p.token_id WHERE p.id = \(pass.id)
        """, logger: self.logger)
      let decoded = rows.decode(
        (String, String, String, Int64, Int64?, ByteBuffer, String?, Int64?, Int64?, ByteBuffer, Int64).self)
      for try await c in decoded {
        return (TokenRow((c.0, c.1, c.2, c.3, c.4, c.5, c.6, c.7, c.8)), Array(buffer: c.9), c.10)
      }
      return nil
    }
    guard let (row, hash, endsAt) = stored, let token = row.token else { return nil }
    return pass.token(token, storedHash: hash, endsAt: Timestamp(millisecondsSince1970: endsAt), at: time)
  }

  /// The `tokens` row whose id is `id`, as stored.
  private func storedToken(_ id: String) async throws(FleetError) -> TokenRow? {
    try await database { () async throws -> TokenRow? in
      let rows = try await self.client.query(
        "SELECT \(unescaped: TokenRow.selectList) FROM tokens WHERE id = \(id)", logger: self.logger)
      for try await row in rows.decode(TokenRow.Columns.self) { return TokenRow(row) }
      return nil
    }
  }

  /// Notes that the token `id` authenticated a request at `time`, at most once a minute.
  package func noteTokenUse(_ id: String, at time: Timestamp = Timestamp.now) async throws(FleetError) {
    let now = time.millisecondsSince1970
    try await transaction { connection in
      try await connection.run(
        """
        UPDATE tokens SET last_used_at = \(now)
          WHERE id = \(id) AND (last_used_at IS NULL OR last_used_at <= \(now - 60_000))
        """, logger: self.logger)
    }
  }
}

/// A `tokens` row as selected.
struct TokenRow {
  typealias Columns = (String, String, String, Int64, Int64?, ByteBuffer, String?, Int64?, Int64?)
  static let selectList = "id, app, role, created_at, revoked_at, secret_hash, label, expires_at, last_used_at"

  /// `selectList`, each column of the table named `table` (for a join).
  static func selectList(of table: String) -> String {
    selectList.split(separator: ",").map { table + "." + $0.trimmingCharacters(in: .whitespaces) }
      .joined(separator: ", ")
  }

  let columns: Columns
  init(_ columns: Columns) { self.columns = columns }

  var secretHash: [UInt8] { columns.5.bytes }

  /// The token; `nil` for a row edited by hand into something that is not one.
  var token: AccessToken? {
    guard let app = try? AppName(columns.1), let role = TokenRole(rawValue: columns.2) else { return nil }
    return AccessToken(
      id: columns.0, app: app, role: role, createdAt: Timestamp(millisecondsSince1970: columns.3),
      revokedAt: columns.4.map(Timestamp.init(millisecondsSince1970:)), label: columns.6,
      expiresAt: columns.7.map(Timestamp.init(millisecondsSince1970:)),
      lastUsedAt: columns.8.map(Timestamp.init(millisecondsSince1970:)))
  }
}
#endif
