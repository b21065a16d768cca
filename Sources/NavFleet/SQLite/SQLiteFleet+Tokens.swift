import Crypto
import NavCore
import NavPersistence

extension SQLiteFleet {
  /// Makes a token for `app` with `role`, and returns its text, which is shown this once and
  /// never kept: the collector keeps its id and the SHA-256 of its secret. The app is created
  /// when it is new (see `store(of:)`). `label` says who holds it; past `expiresAt` it
  /// authenticates nothing.
  package func createToken(
    app: AppName, role: TokenRole, label: String? = nil, expiresAt: Timestamp? = nil, at time: Timestamp = Timestamp.now
  ) throws(FleetError) -> (text: String, token: AccessToken) {
    if let label {
      do {
        _ = try TokenLabelError.check(label)
      } catch {
        throw .invalidTokenLabel(reason: error.reason)
      }
    }
    _ = try store(of: app)
    let presented = PresentedToken.random()
    let token = AccessToken(
      id: presented.id, app: app, role: role, createdAt: time, revokedAt: nil, label: label, expiresAt: expiresAt)
    try FleetError.storing { () throws(StoreError) in
      try main.withWriteTransaction { connection throws(SQLiteError) in
        try connection.statement(
          """
          INSERT INTO collector_tokens (id, app, role, secret_hash, created_at, label, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
          """
        ).execute([
          .text(token.id), .text(app.rawValue), .text(role.rawValue), .blob(presented.secretHash),
          .integer(time.millisecondsSince1970), .optionalText(label),
          expiresAt.map { .integer($0.millisecondsSince1970) } ?? .null,
        ])
      }
    }
    return (presented.text, token)
  }

  /// Notes that the token `id` authenticated a request at `time`: written only when the last
  /// noted use is a minute older or more, so a busy token costs a write a minute, not one a
  /// request.
  package func noteTokenUse(_ id: String, at time: Timestamp = Timestamp.now) throws(FleetError) {
    try FleetError.storing { () throws(StoreError) in
      try main.withWriteTransaction { connection throws(SQLiteError) in
        try connection.statement(
          """
          UPDATE collector_tokens SET last_used_at = ?1
            WHERE id = ?2 AND (last_used_at IS NULL OR last_used_at <= ?1 - 60000)
          """
        ).execute([.integer(time.millisecondsSince1970), .text(id)])
      }
    }
  }

  /// Every token, revoked ones included, oldest first.
  package func tokens() throws(FleetError) -> [AccessToken] {
    guard hasCollectorTables else { return [] }
    return try FleetError.storing { () throws(StoreError) in
      try main.withReadTransaction { connection throws(SQLiteError) in
        let statement = try connection.statement(
          "SELECT \(TokenColumn.selectList) FROM collector_tokens ORDER BY created_at, id")
        defer { statement.reset() }
        var tokens: [AccessToken] = []
        while try statement.step() {
          if let token = Self.token(statement) { tokens.append(token) }
        }
        return tokens
      }
    }
  }

  /// Revokes the token whose id is `id`: it authenticates nothing from now on. A token revoked
  /// before keeps its first revocation time. Throws `unknownToken` when there is none.
  @discardableResult
  package func revokeToken(_ id: String, at time: Timestamp = Timestamp.now) throws(FleetError) -> AccessToken {
    let revoked = try FleetError.storing { () throws(StoreError) in
      try main.withWriteTransaction { connection throws(SQLiteError) in
        try connection.statement("UPDATE collector_tokens SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?")
          .execute([.integer(time.millisecondsSince1970), .text(id)])
        return try Self.storedToken(id, on: connection)?.token
      }
    }
    guard let revoked else { throw .unknownToken(id) }
    return revoked
  }

  /// The token `presented` is, when it is one of this collector's, not revoked and not expired
  /// at `time`; `nil` otherwise (malformed, unknown, revoked, expired or wrong secret alike, so
  /// a caller learns nothing more). The secret's hash is compared in constant time, after a
  /// lookup by the public id only.
  package func authenticate(_ presented: String, at time: Timestamp = Timestamp.now) throws(FleetError)
    -> AccessToken?
  {
    guard hasCollectorTables, let parts = PresentedToken(presented) else { return nil }
    let stored = try FleetError.storing { () throws(StoreError) in
      try main.withReadTransaction { connection throws(SQLiteError) in try Self.storedToken(parts.id, on: connection) }
    }
    // The secret is hashed and compared whether or not the id is known, so that the time of a
    // refusal does not tell a real id from an unknown one.
    let matches = PresentedToken.constantTimeEqual(stored?.secretHash ?? PresentedToken.noHash, parts.secretHash)
    guard let stored, matches, stored.token.isValid(at: time) else { return nil }
    return stored.token
  }

  /// The token `presented` is (see the synchronous `authenticate(_:at:)`), off the caller's
  /// thread.
  package func authenticate(_ presented: String, at time: Timestamp = Timestamp.now) async throws(FleetError)
    -> AccessToken?
  {
    try await offloaded { () throws(FleetError) in try self.authenticate(presented, at: time) }
  }

  /// Opens a console pass for `token` at `time`, ending a working day later: stored, with the
  /// token's passes that have ended deleted, and its oldest ended past `openPerToken`.
  package func openPass(for token: AccessToken, at time: Timestamp = Timestamp.now) throws(FleetError) -> ConsolePass {
    let pass = ConsolePass.make()
    let endsAt = time.millisecondsSince1970 + ConsolePass.lifetimeMilliseconds
    try FleetError.storing { () throws(StoreError) in
      try main.withWriteTransaction { connection throws(SQLiteError) in
        try connection.statement("DELETE FROM collector_console_passes WHERE token_id = ? AND ends_at <= ?")
          .execute([.text(token.id), .integer(time.millisecondsSince1970)])
        try connection.statement(
          """
          DELETE FROM collector_console_passes WHERE token_id = ?1 AND id NOT IN (
            SELECT id FROM collector_console_passes WHERE token_id = ?1 ORDER BY ends_at DESC LIMIT ?2)
          """
        ).execute([.text(token.id), .integer(Int64(ConsolePass.openPerToken - 1))])
        try connection.statement(
          "INSERT INTO collector_console_passes (id, token_id, secret_hash, ends_at) VALUES (?, ?, ?, ?)"
        ).execute([.text(pass.id), .text(token.id), .blob(pass.secretHash), .integer(endsAt)])
      }
    }
    return pass
  }

  /// Opens a console pass (see the synchronous `openPass(for:at:)`), off the caller's thread.
  package func openPass(for token: AccessToken, at time: Timestamp = Timestamp.now) async throws(FleetError)
    -> ConsolePass
  {
    try await offloaded { () throws(FleetError) in try self.openPass(for: token, at: time) }
  }

  /// Ends a console pass (a sign-out): it signs in with nothing from now on. A pass whose secret
  /// is not the stored one ends nothing.
  package func endPass(_ pass: ConsolePass) throws(FleetError) {
    guard hasCollectorTables else { return }
    try FleetError.storing { () throws(StoreError) in
      try main.withWriteTransaction { connection throws(SQLiteError) in
        try connection.statement("DELETE FROM collector_console_passes WHERE id = ? AND secret_hash = ?")
          .execute([.text(pass.id), .blob(pass.secretHash)])
      }
    }
  }

  /// Ends a console pass, off the caller's thread.
  package func endPass(_ pass: ConsolePass) async throws(FleetError) {
    try await offloaded { () throws(FleetError) in try self.endPass(pass) }
  }

  /// The token a console pass signs in with at `time` (see `ConsolePass`), `nil` when it signs
  /// in with none (unknown, ended, signed out, or its token revoked, expired or gone).
  package func authenticate(_ pass: ConsolePass, at time: Timestamp = Timestamp.now) throws(FleetError) -> AccessToken?
  {
    guard hasCollectorTables else { return nil }
    let stored = try FleetError.storing { () throws(StoreError) in
      try main.withReadTransaction { connection throws(SQLiteError) -> (AccessToken, [UInt8], Int64)? in
        let statement = try connection.statement(
          "SELECT token_id, secret_hash, ends_at FROM collector_console_passes WHERE id = ?")
        defer { statement.reset() }
        try statement.bind([.text(pass.id)])
        guard try statement.step() else { return nil }
        let (tokenID, hash, endsAt) = (statement.text(0), statement.blob(1), statement.int64(2))
        statement.reset()
        guard let token = try Self.storedToken(tokenID, on: connection)?.token else { return nil }
        return (token, hash, endsAt)
      }
    }
    guard let (token, hash, endsAt) = stored else { return nil }
    return pass.token(token, storedHash: hash, endsAt: Timestamp(millisecondsSince1970: endsAt), at: time)
  }

  /// The token a console pass signs in with (see the synchronous `authenticate(_:at:)`), off
  /// the caller's thread.
  package func authenticate(_ pass: ConsolePass, at time: Timestamp = Timestamp.now) async throws(FleetError)
    -> AccessToken?
  {
    try await offloaded { () throws(FleetError) in try self.authenticate(pass, at: time) }
  }

  /// Notes a token's use (see the synchronous `noteTokenUse(_:at:)`), off the caller's thread.
  package func noteTokenUse(_ id: String, at time: Timestamp = Timestamp.now) async throws(FleetError) {
    try await offloaded { () throws(FleetError) in try self.noteTokenUse(id, at: time) }
  }

  /// The token whose id is `id` and its secret's hash, as stored.
  private static func storedToken(_ id: String, on connection: SQLiteConnection) throws(SQLiteError)
    -> (token: AccessToken, secretHash: [UInt8])?
  {
    let statement = try connection.statement("SELECT \(TokenColumn.selectList) FROM collector_tokens WHERE id = ?")
    defer { statement.reset() }
    try statement.bind([.text(id)])
    guard try statement.step(), let token = token(statement) else { return nil }
    return (token, statement.blob(TokenColumn.secretHash))
  }

  /// The token of a row selected with `TokenColumn.selectList`; `nil` for a row edited by hand
  /// into something that is not one.
  private static func token(_ statement: SQLiteStatement) -> AccessToken? {
    guard let app = try? AppName(statement.text(TokenColumn.app)),
      let role = TokenRole(rawValue: statement.text(TokenColumn.role))
    else { return nil }
    return AccessToken(
      id: statement.text(TokenColumn.id), app: app, role: role,
      createdAt: Timestamp(millisecondsSince1970: statement.int64(TokenColumn.createdAt)),
      revokedAt: statement.optionalInt64(TokenColumn.revokedAt).map(Timestamp.init(millisecondsSince1970:)),
      label: statement.optionalText(TokenColumn.label),
      expiresAt: statement.optionalInt64(TokenColumn.expiresAt).map(Timestamp.init(millisecondsSince1970:)),
      lastUsedAt: statement.optionalInt64(TokenColumn.lastUsedAt).map(Timestamp.init(millisecondsSince1970:)))
  }
}

/// The columns of a `collector_tokens` row, in the order every token query selects them.
enum TokenColumn: Int32, ResultColumns {
  case id, app, role, createdAt, revokedAt, secretHash, label, expiresAt, lastUsedAt

  static let selectList = columnList

  var expression: String {
    switch self {
    case .id: "id"
    case .app: "app"
    case .role: "role"
    case .createdAt: "created_at"
    case .revokedAt: "revoked_at"
    case .secretHash: "secret_hash"
    case .label: "label"
    case .expiresAt: "expires_at"
    case .lastUsedAt: "last_used_at"
    }
  }
}
