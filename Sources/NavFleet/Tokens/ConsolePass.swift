import Crypto
import NavCore
@_spi(Internals) import NavPersistence

/// What keeps a browser signed in to the console, without the token: the token's public id,
/// when the sign-in ends, and an HMAC-SHA256 of both keyed by the token's stored secret hash.
///
/// Any collector of the store can check one (the key is in the store they share), none can make
/// one without the store or the token, and it ends when the collector says, whatever the
/// browser does with its cookie: a pass copied out of a browser is worth hours, not the token's
/// lifetime. The token is looked up on every check, so revoking it ends its passes at once.
/// Written `nvc_<id>_<ends at, ms since 1970>_<mac, 64 hex digits>`.
package struct ConsolePass: Sendable, Equatable {
  static let prefix = "nvc_"
  /// How long a pass works from its sign-in, in milliseconds: a working day.
  package static let lifetimeMilliseconds: Int64 = 8 * 3600 * 1000

  /// The token's public id.
  package let tokenID: String
  /// When the pass stops working.
  package let endsAt: Timestamp
  /// The MAC, as its lowercase hex digits.
  let mac: [UInt8]

  /// A pass for the token `presented` (its whole text, as a sign-in form holds it), from `now`;
  /// `nil` when the text does not have a token's shape. It is only worth anything if the token
  /// is one of the store's: sign-in authenticates the token first.
  package init?(signingIn presented: String, at now: Timestamp) {
    guard let token = PresentedToken(presented) else { return nil }
    tokenID = token.id
    endsAt = Timestamp(millisecondsSince1970: now.millisecondsSince1970 + Self.lifetimeMilliseconds)
    mac = Self.mac(key: token.secretHash, tokenID: tokenID, endsAt: endsAt)
  }

  /// The pass `text` is, `nil` when it does not have a pass's shape.
  package init?(_ text: String) {
    guard text.hasPrefix(Self.prefix) else { return nil }
    let parts = text.dropFirst(Self.prefix.count).split(separator: "_", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 16, parts[0].utf8.allSatisfy(PresentedToken.isLowercaseHex),
      parts[1].count <= 16, let ends = Int64(parts[1]), ends > 0,
      parts[2].count == 64, parts[2].utf8.allSatisfy(PresentedToken.isLowercaseHex)
    else { return nil }
    tokenID = String(parts[0])
    endsAt = Timestamp(millisecondsSince1970: ends)
    mac = Array(parts[2].utf8)
  }

  /// The pass as a cookie's value: letters, digits and `_`.
  package var text: String {
    Self.prefix + tokenID + "_" + String(endsAt.millisecondsSince1970) + "_" + String(decoding: mac, as: UTF8.self)
  }

  /// The token this pass signs in with, when it is the stored `token` whose secret hashes to
  /// `secretHash`, the pass was made with that hash, and both are still good at `time`: a pass
  /// that ends later than a sign-in now would is no pass (it was not made here).
  package func token(_ token: AccessToken, secretHash: [UInt8], at time: Timestamp) -> AccessToken? {
    let latest = time.millisecondsSince1970 + Self.lifetimeMilliseconds + 60_000
    guard token.id == tokenID, token.isValid(at: time), endsAt > time, endsAt.millisecondsSince1970 <= latest,
      PresentedToken.constantTimeEqual(mac, Self.mac(key: secretHash, tokenID: tokenID, endsAt: endsAt))
    else { return nil }
    return token
  }

  /// The MAC of a pass: its id and end under the token's secret hash, with a label of its own so
  /// that no other MAC of the same key could pass for one.
  private static func mac(key: [UInt8], tokenID: String, endsAt: Timestamp) -> [UInt8] {
    let message = "navstore console pass 1\n\(tokenID)\n\(endsAt.millisecondsSince1970)"
    let code = HMAC<SHA256>.authenticationCode(for: Array(message.utf8), using: SymmetricKey(data: key))
    return Array(HashChain.hex(Array(code)).utf8)
  }
}
