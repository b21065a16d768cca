import Crypto
import NavCore
import NavPersistence

/// File names for reports, made from session ids: safe on every file system (letters, digits,
/// `.`, `-` and `_` only, no leading dot, not too long), and distinct for distinct ids (an id
/// that had to change gets a short hash of the original).
public enum ReportFileName {
  /// `<safe id>.html`.
  public static func of(_ session: SessionID) -> String {
    let id = session.rawValue
    var safe = String(id.unicodeScalars.map { scalar -> Character in
      switch scalar {
      case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".": Character(scalar)
      default: "_"
      }
    })
    if safe.hasPrefix(".") { safe = "_" + safe.dropFirst() }
    if safe.count > 80 { safe = String(safe.prefix(80)) }
    if safe != id {
      safe += "-" + HashChain.hex(Array(SHA256.hash(data: Array(id.utf8)).prefix(4)))
    }
    return safe + ".html"
  }
}
