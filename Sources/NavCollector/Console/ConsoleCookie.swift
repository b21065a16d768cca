import HTTPTypes
import NavFleet

/// How the console keeps a support engineer signed in: a pass made from the `read` token they
/// signed in with (`ConsolePass`: the token's id, when the sign-in ends, and a MAC; never the
/// token), in a cookie the browser never shows a page's script (`HttpOnly`), never sends from
/// another site (`SameSite=Strict`), sends only to the console's paths, and only over HTTPS when
/// the collector serves HTTPS (`Secure`). Every request checks the pass and its token again, so
/// a token revoked or expired signs its console out at once, and a pass ends when the collector
/// says. Neither is ever put in a URL, and the log lines never name a header.
enum ConsoleCookie {
  static let name = "navstore_console"
  /// How long a sign-in lasts: a working day, as the pass says.
  static let lifetimeSeconds = Int(ConsolePass.lifetimeMilliseconds / 1000)

  /// The pass the request's cookies carry, if they carry one. Two cookies of the name (one
  /// planted by another site of the domain, or over plain HTTP, beside the console's own) are
  /// no sign-in: nothing tells which is the console's.
  static func pass(in headers: HTTPFields) -> String? {
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

  /// The `Set-Cookie` that signs the browser in with `pass`.
  static func signIn(_ pass: ConsolePass, secure: Bool) -> String {
    "\(name)=\(pass.text); Path=/console; Max-Age=\(lifetimeSeconds); HttpOnly; SameSite=Strict"
      + (secure ? "; Secure" : "")
  }

  /// The `Set-Cookie` that makes the browser forget it.
  static func signOut(secure: Bool) -> String {
    "\(name)=; Path=/console; Max-Age=0; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
  }
}
