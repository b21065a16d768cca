import Crypto
import NavCore

extension SessionStore {
  /// Makes a token for `app` with `role`, and returns its text, which is shown this once and
  /// never kept: the store keeps its id and the SHA-256 of its secret. The app is created when
  /// it is new (see `app(_:)`). `label` says who holds it; past `expiresAt` it authenticates
  /// nothing.
  public func createToken(
    app: AppName, role: TokenRole, label: String? = nil, expiresAt: Timestamp? = nil, at time: Timestamp = Timestamp.now
  ) throws(StoreError) -> (text: String, token: AccessToken) {
    if let label {
      do {
        _ = try TokenLabelError.check(label)
      } catch {
        throw StoreError.caller(CallerError(error))
      }
    }
    _ = try self.app(app)
    var generator = SystemRandomNumberGenerator()  // the system's cryptographic source
    let id = Self.hex((0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) })
    let secret = Self.hex((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    let token = AccessToken(
      id: id, app: app, role: role, createdAt: time, revokedAt: nil, label: label, expiresAt: expiresAt)
    try write { engine throws(StoreError) in
      try engine.execute(
        try engine.prepare(
          "INSERT INTO tokens (id, app, role, secret_hash, created_at, label, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)"),
        [
          .text(id), .text(app.rawValue), .text(role.rawValue), .blob(Array(SHA256.hash(data: Array(secret.utf8)))),
          .integer(time.millisecondsSince1970), label.map { .text($0) } ?? .null,
          expiresAt.map { .integer($0.millisecondsSince1970) } ?? .null,
        ])
    }
    return (PresentedToken.text(id: id, secret: secret), token)
  }

  /// Notes that the token `id` authenticated a request at `time`: written only when the last
  /// noted use is a minute older or more, so a busy token costs a write a minute, not one a
  /// request.
  package func noteTokenUse(_ id: String, at time: Timestamp = Timestamp.now) throws(StoreError) {
    try write { engine throws(StoreError) in
      try engine.execute(
        try engine.prepare(
          "UPDATE tokens SET last_used_at = ?1 WHERE id = ?2 AND (last_used_at IS NULL OR last_used_at <= ?1 - 60000)"),
        [.integer(time.millisecondsSince1970), .text(id)])
    }
  }

  /// Every token, revoked ones included, oldest first.
  public func tokens() throws(StoreError) -> [AccessToken] {
    try read { engine throws(StoreError) in
      let statement = try engine.prepare(
        "SELECT \(TokenColumn.selectList) FROM tokens ORDER BY created_at, id")
      defer { statement.reset() }
      var tokens: [AccessToken] = []
      while try engine.step(statement) {
        if let token = Self.token(statement) { tokens.append(token) }
      }
      return tokens
    }
  }

  /// Revokes the token whose id is `id`: it authenticates nothing from now on. A token revoked
  /// before keeps its first revocation time. Throws `unknownToken` when there is none.
  @discardableResult
  public func revokeToken(_ id: String, at time: Timestamp = Timestamp.now) throws(StoreError) -> AccessToken {
    try write { engine throws(StoreError) in
      try engine.execute(
        try engine.prepare("UPDATE tokens SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?"),
        [.integer(time.millisecondsSince1970), .text(id)])
      guard let token = try Self.storedToken(id, in: engine) else { throw StoreError.unknownToken(id) }
      return token
    }
  }

  /// The token `presented` is, when it is one of this store's, not revoked and not expired at
  /// `time`; `nil` otherwise (malformed, unknown, revoked, expired or wrong secret alike, so a
  /// caller learns nothing more). The secret's hash is compared in constant time, after a
  /// lookup by the public id only.
  public func authenticate(_ presented: String, at time: Timestamp = Timestamp.now) throws(StoreError) -> AccessToken? {
    guard let parts = PresentedToken(presented) else { return nil }
    let presentedHash = Array(SHA256.hash(data: parts.secret))
    return try read { engine throws(StoreError) in
      let statement = try engine.prepare(
        "SELECT \(TokenColumn.selectList) FROM tokens WHERE id = ?")
      defer { statement.reset() }
      try engine.bind(statement, [.text(parts.id)])
      guard try engine.step(statement), let token = Self.token(statement) else { return nil }
      let stored = statement.blob(TokenColumn.secretHash)
      guard Self.constantTimeEqual(stored, presentedHash), token.isValid(at: time) else { return nil }
      return token
    }
  }

  /// The token `presented` is (see the synchronous `authenticate(_:)`), off the caller's thread.
  public func authenticate(_ presented: String) async throws(StoreError) -> AccessToken? {
    try await offloaded { () throws(StoreError) in try self.authenticate(presented) }
  }

  /// Notes a token's use (see the synchronous `noteTokenUse(_:at:)`), off the caller's thread.
  package func noteTokenUse(_ id: String) async throws(StoreError) {
    try await offloaded { () throws(StoreError) in try self.noteTokenUse(id) }
  }

  private static func storedToken(_ id: String, in engine: StoreEngine) throws(StoreError) -> AccessToken? {
    let statement = try engine.prepare("SELECT \(TokenColumn.selectList) FROM tokens WHERE id = ?")
    defer { statement.reset() }
    try engine.bind(statement, [.text(id)])
    guard try engine.step(statement) else { return nil }
    return token(statement)
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

  /// Whether two byte strings are equal, in a time that depends on their length only.
  package static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
    guard lhs.count == rhs.count else { return false }
    var difference: UInt8 = 0
    for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
    return difference == 0
  }

  private static func hex(_ bytes: [UInt8]) -> String {
    bytes.map { byte in
      let digits = Array("0123456789abcdef".utf8)
      return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]], as: UTF8.self)
    }.joined()
  }
}

/// The columns of a `tokens` row, in the order every token query selects them.
enum TokenColumn: Int32, ResultColumns {
  case id, app, role, createdAt, revokedAt, secretHash, label, expiresAt, lastUsedAt

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
