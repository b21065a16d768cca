import NavCore

/// What an export keeps of the values that can hold personal data (screens' values, the app's
/// actions, the app's context keys): all of them; none (`--omit-payloads`); or, of each, only the
/// fields an allow-list names (`--keep-payload-fields`), so that a product id can go to the
/// analysts while the user's name, typed into the same screen's value, does not.
package struct PayloadRedaction: Hashable, Sendable {
  /// Whether the values are left out, but for the fields `kept` names.
  package var omits: Bool
  /// The fields kept of each value when `omits`: each a path of object keys from the value's
  /// root (an array's elements are each followed by the rest of the path).
  package var kept: [[String]]

  /// Every value, as stored.
  package static let none = PayloadRedaction(omits: false, kept: [])

  package init(omits: Bool, kept: [[String]]) {
    self.omits = omits
    self.kept = kept
  }

  /// The most paths one export takes: each costs a look at every key of every value it keeps.
  package static let maximumPaths = 100

  /// Why a list of paths is refused.
  package enum PathsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A part that is not keys joined by dots (an empty key).
    case notAPath(String)
    /// More than `maximumPaths`.
    case tooMany(Int)

    /// The refusal, as each front end puts it after the option's name.
    package var description: String {
      switch self {
      case .notAPath(let part): "'\(part)' is not a path of keys joined by dots (productDetail.id)"
      case .tooMany(let count): "\(count) paths; an export keeps at most \(PayloadRedaction.maximumPaths)"
      }
    }
  }

  /// A path as the command line and the collector take it: keys joined by dots
  /// (`productDetail.id`); `nil` when a key is empty.
  package static func path(_ text: String) -> [String]? {
    let keys = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    return keys.contains(where: \.isEmpty) ? nil : keys
  }

  /// The paths of lists separated by commas (the spaces around each part ignored), as every
  /// front end reads them.
  package static func paths(_ lists: [String]) throws(PathsError) -> [[String]] {
    var paths: [[String]] = []
    for part in lists.flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false) }) {
      let trimmed = String(part.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
      guard let path = path(trimmed) else { throw .notAPath(String(part)) }
      paths.append(path)
    }
    guard paths.count <= maximumPaths else { throw .tooMany(paths.count) }
    return paths
  }

  /// `value` as the export writes it: whole; or, when omitting, only the fields kept (`nil`
  /// when none of them is in it).
  package func apply(_ value: JSONValue?) -> JSONValue? {
    guard omits else { return value }
    return value.flatMap { Self.keeping(kept, of: $0) }
  }

  /// `apply` on a screen: what names it (a `name` or `type` string beside other members, which
  /// the exports' `screen` column shows anyway) stays with the fields kept, so that the kept
  /// screen still reads as that screen and its parameters are the fields kept.
  package func apply(screen: JSONValue?) -> JSONValue? {
    guard omits, case .object(let members)? = screen, members.count > 1,
      let key = ["name", "type"].first(where: { if case .string? = members[$0] { true } else { false } }),
      case .object(var kept)? = apply(screen)
    else { return apply(screen) }
    kept[key] = members[key]
    return .object(kept)
  }

  /// `apply` on the canonical text the store keeps (a cause): decoded only when some field
  /// may be kept.
  package func apply(stored text: String) -> String? {
    guard omits else { return text }
    guard !kept.isEmpty, let value = try? WireFormat.decode(JSONValue.self, from: text) else { return nil }
    return apply(value)?.canonicalString
  }

  private static func keeping(_ paths: [[String]], of value: JSONValue) -> JSONValue? {
    // A path that ends here keeps the whole value.
    if paths.contains(where: \.isEmpty) { return value }
    switch value {
    case .object(let fields):
      var kept: [String: JSONValue] = [:]
      for (key, field) in fields {
        let rest = paths.filter { $0.first == key }.map { Array($0.dropFirst()) }
        if !rest.isEmpty, let value = keeping(rest, of: field) { kept[key] = value }
      }
      return kept.isEmpty ? nil : .object(kept)
    case .array(let elements):
      let kept = elements.compactMap { keeping(paths, of: $0) }
      return kept.isEmpty ? nil : .array(kept)
    case .null, .bool, .number, .string:
      // A path that goes on past a plain value names nothing in it.
      return nil
    }
  }
}
