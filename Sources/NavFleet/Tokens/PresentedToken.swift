import Crypto
@_spi(Internals) import NavPersistence

/// A token as a client presents it, `nvs_ID_SECRET` (16 and 64 lowercase hex digits), taken
/// apart; or a new one, made from the system's cryptographic source.
package struct PresentedToken {
  static let prefix = "nvs_"
  /// The public part, which the collector looks the token up by.
  var id: String
  /// The secret's text, as presented.
  var secret: [UInt8]

  /// The parts of `text`, or `nil` when it does not have the token's shape.
  package init?(_ text: String) {
    guard text.hasPrefix(Self.prefix) else { return nil }
    let parts = text.dropFirst(Self.prefix.count).split(separator: "_", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[0].count == 16, parts[1].count == 64,
      parts.allSatisfy({ $0.utf8.allSatisfy(Self.isLowercaseHex) })
    else { return nil }
    id = String(parts[0])
    secret = Array(parts[1].utf8)
  }

  private init(id: String, secret: String) {
    self.id = id
    self.secret = Array(secret.utf8)
  }

  /// A new token: 8 random bytes of id and 32 of secret, in lowercase hex.
  static func random() -> PresentedToken {
    var generator = SystemRandomNumberGenerator()  // the system's cryptographic source
    func randomHex(_ count: Int) -> String {
      HashChain.hex((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
    return PresentedToken(id: randomHex(8), secret: randomHex(32))
  }

  /// The whole token's text, shown once to whoever made it.
  var text: String { Self.prefix + id + "_" + String(decoding: secret, as: UTF8.self) }

  /// What an unknown id is compared against: no secret hashes to 32 zero bytes that anyone
  /// knows of, and comparing costs the same.
  static let noHash = [UInt8](repeating: 0, count: 32)

  /// What the collector keeps of the secret: its SHA-256.
  package var secretHash: [UInt8] { Array(SHA256.hash(data: secret)) }

  /// Whether two byte strings are equal, in a time that depends on their length only.
  package static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
    guard lhs.count == rhs.count else { return false }
    var difference: UInt8 = 0
    for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
    return difference == 0
  }

  /// Whether `byte` is one of the digits a token (or a console pass) is written in.
  static func isLowercaseHex(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
  }
}
