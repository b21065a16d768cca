import Crypto
import NavCore
@_spi(Internals) import NavPersistence

/// File names for reports, made from session ids: safe on every file system (letters, digits,
/// `.`, `-` and `_` only, no leading dot, not too long, never `index`). An id that had to
/// change gets a short hash of the original; `report --all` also makes names distinct that
/// would only differ in case, or that an id was chosen to collide with (`unique(_:taken:)`).
package enum ReportFileName {
  /// `<safe id>.html`.
  package static func of(_ session: SessionID) -> String {
    let id = session.rawValue
    var safe = String(
      id.unicodeScalars.map { scalar -> Character in
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".": Character(scalar)
        default: "_"
        }
      })
    if safe.hasPrefix(".") { safe = "_" + safe.dropFirst() }
    if safe.count > 80 { safe = String(safe.prefix(80)) }
    // `index` is the index page's name under --all.
    if safe != id || safe.lowercased() == "index" {
      safe += "-" + HashChain.hex(Array(SHA256.hash(data: Array(id.utf8)).prefix(4)))
    }
    return safe + ".html"
  }

  /// `of(session)`, or with a counter when that name (compared without case, for file systems
  /// that ignore it) is in `taken`; the name returned is added to `taken`.
  package static func unique(_ session: SessionID, taken: inout Set<String>) -> String {
    let base = of(session)
    var name = base
    var counter = 2
    while taken.contains(name.lowercased()) {
      name = String(base.dropLast(5)) + "-\(counter).html"
      counter += 1
    }
    taken.insert(name.lowercased())
    return name
  }
}
