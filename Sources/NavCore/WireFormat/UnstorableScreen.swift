import NavJSON

/// A screen the app could not encode (a closure or a view model inside a case), as the history
/// keeps it: a marker in the screen's place, `{"navstore.unstorable": {"screen": "Screen.editor",
/// "error": "..."}}`, so that the change that showed it, and the one that took it away, are
/// recorded and replay like any other. The marker names the type and the enum case, never a
/// value. A restore drops the route (no app screen decodes from it) and says why.
package enum UnstorableScreen {
  /// The marker's one member.
  package static let key = "navstore.unstorable"

  /// A screen that did not encode: its type and case, and why.
  package struct Found: Hashable, Sendable {
    /// `Screen.editor`: the type, and for an enum the case.
    package var screen: String
    /// The encoder's reason.
    package var error: String
  }

  /// What stands in the history for `found`.
  package static func marker(_ found: Found) -> JSONValue {
    .object([
      key: .object([
        "screen": .string(WireScalars.writableText(found.screen) ?? "?"),
        "error": .string(WireScalars.writableText(found.error) ?? "does not encode"),
      ])
    ])
  }

  /// What `marker` stands for, when `screen` is one.
  package static func found(in screen: JSONValue) -> Found? {
    guard case .object(let members) = screen, members.count == 1, case .object(let fields)? = members[key],
      case .string(let name)? = fields["screen"], case .string(let error)? = fields["error"]
    else { return nil }
    return Found(screen: name, error: error)
  }

  /// `Screen.editor`: the type and, for an enum, its case; never the values it carries.
  package static func name<AppScreen>(of screen: AppScreen) -> String {
    let type = String(describing: AppScreen.self)
    let mirror = Mirror(reflecting: screen)
    guard mirror.displayStyle == .enum else { return type }
    if let label = mirror.children.first?.label { return "\(type).\(label)" }
    return "\(type).\(String(describing: screen))"
  }
}
