import Crypto
import NavCore
@_spi(Internals) import NavPersistence

/// What keeps a browser signed in to the console, without the token: a pass the store knows by
/// its id, and a random secret only the browser holds (the store keeps its SHA-256).
///
/// The store decides what a pass is worth: the read token it was opened with, and when it ends
/// (a working day after the sign-in). Signing out deletes it, so a copy of the cookie is
/// worth nothing from then on; revoking the token ends its passes at once (the token is looked
/// up with each one); and nothing the store holds can make a pass (its secret is not there, and
/// no key is derived from the token's stored hash), so a stolen backup opens no console. Any
/// collector of a shared store checks any pass. Written `nvc_<id, 16 hex digits>_<secret, 64>`.
package struct ConsolePass: Sendable, Equatable {
  static let prefix = "nvc_"
  /// How long a pass works from its sign-in, in milliseconds: a working day.
  package static let lifetimeMilliseconds: Int64 = 8 * 3600 * 1000
  /// The most passes one token keeps open: a new sign-in past it ends the oldest.
  package static let openPerToken = 64

  /// The pass's public id, its key in the store.
  package let id: String
  /// The secret, as its lowercase hex digits.
  let secret: [UInt8]

  /// A new pass: a random id and a random secret of 32 bytes.
  package static func make() -> ConsolePass {
    var generator = SystemRandomNumberGenerator()
    let id = (0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) }
    let secret = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    return ConsolePass(id: HashChain.hex(id), secret: Array(HashChain.hex(secret).utf8))
  }

  private init(id: String, secret: [UInt8]) {
    self.id = id
    self.secret = secret
  }

  /// The pass `text` is, `nil` when it does not have a pass's shape.
  package init?(_ text: String) {
    guard text.hasPrefix(Self.prefix) else { return nil }
    let parts = text.dropFirst(Self.prefix.count).split(separator: "_", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[0].count == 16, parts[0].utf8.allSatisfy(PresentedToken.isLowercaseHex),
      parts[1].count == 64, parts[1].utf8.allSatisfy(PresentedToken.isLowercaseHex)
    else { return nil }
    id = String(parts[0])
    secret = Array(parts[1].utf8)
  }

  /// The pass as a cookie's value: letters, digits and `_`.
  package var text: String { Self.prefix + id + "_" + String(decoding: secret, as: UTF8.self) }

  /// What the store keeps of the secret.
  package var secretHash: [UInt8] { Array(SHA256.hash(data: secret)) }

  /// Whether this pass's secret is the one whose hash the store keeps (in constant time).
  package func matches(storedHash: [UInt8]) -> Bool { PresentedToken.constantTimeEqual(secretHash, storedHash) }

  /// The token a stored pass signs in with at `time`: the pass's own row (`storedHash`, its end)
  /// for this pass, and its token still good.
  package func token(_ token: AccessToken, storedHash: [UInt8], endsAt: Timestamp, at time: Timestamp)
    -> AccessToken?
  {
    guard matches(storedHash: storedHash), endsAt > time, token.isValid(at: time), token.role == .read else {
      return nil
    }
    return token
  }
}
