/// How a screen is shown, and whether it starts a navigation stack screens can be pushed onto.
///
/// A push never has its own navigation (it lives inside one), so the type leaves no room for
/// `push(withNavigation: true)`: the wire format rejects that combination and so does the model.
public enum RouteStyle: Hashable, Sendable {
  /// The first route of every stack.
  case root(withNavigation: Bool)
  /// A screen pushed onto the current navigation stack.
  case push
  /// A screen presented as a sheet.
  case sheet(withNavigation: Bool)
  /// A screen presented as a full-screen cover.
  case cover(withNavigation: Bool)

  /// Whether screens can be pushed on top of this route.
  public var withNavigation: Bool {
    switch self {
    case .root(let withNavigation), .sheet(let withNavigation), .cover(let withNavigation):
      withNavigation
    case .push:
      false
    }
  }

  /// Whether this route is a presentation layer (a sheet or a cover).
  public var isPresented: Bool {
    switch self {
    case .sheet, .cover: true
    case .root, .push: false
    }
  }

  /// Whether this route is a push.
  package var isPush: Bool { self == .push }

  /// Whether this route is a stack's root.
  package var isRoot: Bool {
    if case .root = self { return true }
    return false
  }

  /// The wire-format name of the style: `root`, `push`, `sheet` or `cover`.
  package var name: String {
    switch self {
    case .root: "root"
    case .push: "push"
    case .sheet: "sheet"
    case .cover: "cover"
    }
  }
}

extension RouteStyle: CustomStringConvertible {
  /// `push`, `sheet`, `sheet+nav`, ...: compact enough for error messages and tree printouts.
  public var description: String {
    withNavigation ? "\(name)+nav" : name
  }
}
