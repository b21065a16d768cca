/// The name of an app whose sessions a store keeps apart from every other app's: a namespace.
///
/// The same session id in two apps is two sessions, and a collector's token reaches one app
/// only. 1 to 64 characters of `a-z`, `0-9`, `.`, `_` and `-`, the first a letter or a digit,
/// so that a name is also a file name on every system. `default` is the app of a store's own
/// file, and of every session written before stores held several apps.
package struct AppName: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The name.
  package let rawValue: String

  /// The app of a store's own file.
  package static let `default` = AppName(checked: "default")

  /// The longest name, in characters.
  static let maximumLength = 64

  /// A name, checked.
  package init(_ rawValue: String) throws(AppNameError) {
    let scalars = rawValue.unicodeScalars
    guard (1...Self.maximumLength).contains(scalars.count) else {
      throw AppNameError(name: rawValue, reason: "it must have 1 to \(Self.maximumLength) characters")
    }
    func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
      ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
    }
    guard let first = scalars.first, isLetterOrDigit(first) else {
      throw AppNameError(name: rawValue, reason: "it must begin with a lowercase letter or a digit")
    }
    guard scalars.allSatisfy({ isLetterOrDigit($0) || $0 == "." || $0 == "_" || $0 == "-" }) else {
      throw AppNameError(name: rawValue, reason: "it may hold only a-z, 0-9, '.', '_' and '-'")
    }
    self.rawValue = rawValue
  }

  private init(checked: String) { rawValue = checked }

  /// Whether this is the app of the store's own file.
  package var isDefault: Bool { self == .default }

  package var description: String { rawValue }

  package static func < (lhs: AppName, rhs: AppName) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Why a text is not an app name.
package struct AppNameError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The text refused.
  package var name: String
  /// What is wrong with it.
  package var reason: String

  package var description: String { "'\(name)' is not an app name: \(reason)" }
}
