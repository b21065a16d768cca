import HTTPTypes

/// How the console keeps a support engineer signed in: the `read` token they signed in with, in
/// a cookie the browser never shows a page's script (`HttpOnly`), never sends from another site
/// (`SameSite=Strict`), sends only to the console's paths, and only over HTTPS when the
/// collector serves HTTPS (`Secure`). Every request checks the token again, so a token revoked
/// or expired signs its console out at once. The token is never put in a URL, and the log
/// lines never name a header.
enum ConsoleCookie {
  static let name = "navstore_console"
  /// How long a sign-in lasts: a working day.
  static let lifetimeSeconds = 8 * 3600

  /// The token the request's cookies carry, if they carry one. Two cookies of the name (one
  /// planted by another site of the domain, or over plain HTTP, beside the console's own) are
  /// no sign-in: nothing tells which is the console's.
  static func token(in headers: HTTPFields) -> String? {
    var found: [String] = []
    for header in headers[values: .cookie] {
      for pair in header.split(separator: ";") {
        let parts = pair.split(separator: "=", maxSplits: 1)
        guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name else { continue }
        found.append(parts[1].trimmingCharacters(in: .whitespaces))
      }
    }
    guard found.count == 1, let value = found.first, !value.isEmpty else { return nil }
    return value
  }

  /// The `Set-Cookie` that signs the browser in with `token`.
  static func signIn(_ token: String, secure: Bool) -> String {
    "\(name)=\(token); Path=/console; Max-Age=\(lifetimeSeconds); HttpOnly; SameSite=Strict"
      + (secure ? "; Secure" : "")
  }

  /// The `Set-Cookie` that makes the browser forget it.
  static func signOut(secure: Bool) -> String {
    "\(name)=; Path=/console; Max-Age=0; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
  }

  /// Whether a token's text can be a cookie's value as it is: a token is letters, digits and `_`.
  static func fits(_ token: String) -> Bool {
    !token.isEmpty && token.utf8.count <= 256
      && token.utf8.allSatisfy {
        $0 == UInt8(ascii: "_") || ($0 < 128 && Character(Unicode.Scalar($0)).isLetter) || ($0 >= 48 && $0 <= 57)
      }
  }
}
