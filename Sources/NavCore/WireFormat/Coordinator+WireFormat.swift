import NavJSON

/// Route, coordinator and path in the wire format (docs/spec/wire-format.md, "Route",
/// "Coordinator", "Path"). Reading accepts exactly those shapes; writing gives the normalized
/// form: `withNavigation` only when true, `child` only when present.

enum RouteField: String, WireField {
  case style, screen, withNavigation, child
  static let canonicalOrder = sortedCanonically()
  static let keys = WireNames<Self>()
}

extension Route: WireValue, Codable {
  static func read(from tree: JSONValue) throws(WireFailure) -> Route {
    let object = try WireObjectReader<RouteField>(tree)
    var styleTree: JSONValue?
    var screenTree: JSONValue?
    var flagTree: JSONValue?
    var childTree: JSONValue?
    let present = object.sort { field, value in
      switch field {
      case .style: styleTree = value
      case .screen: screenTree = value
      case .withNavigation: flagTree = value
      case .child: childTree = value
      }
    }
    let styleName = try object.required(styleTree, .style, WireScalars.string)
    if styleName == "push", flagTree != nil {
      throw object.failure(
        at: [AnyCodingKey("withNavigation")],
        "withNavigation is not allowed on a push route: a pushed screen lives in the navigation stack below it")
    }
    try object.refuseUnknown(allowed: RouteField.allCases, present: present, in: "a route")
    let withNavigation = try object.optional(flagTree, .withNavigation, WireScalars.bool) ?? false
    let style: RouteStyle
    switch styleName {
    case "root": style = .root(withNavigation: withNavigation)
    case "push": style = .push
    case "sheet": style = .sheet(withNavigation: withNavigation)
    case "cover": style = .cover(withNavigation: withNavigation)
    default:
      throw object.failure(
        at: [AnyCodingKey("style")], "unknown style \"\(styleName)\" (expected root, push, sheet or cover)")
    }
    let screen: AppScreen = try object.required(screenTree, .screen, WireScreens.read)
    let child = try object.optional(childTree, .child, Coordinator<AppScreen>.read(from:))
    return Route(style: style, screen: screen, child: child)
  }

  func write(to writer: inout CanonicalWriter) throws(WireFailure) {
    try writer.object(RouteField.self) { writer, field throws(WireFailure) in
      switch field {
      case .style: writer.string(style.name)
      case .screen: try WireScreens.write(screen, to: &writer)
      case .withNavigation:
        guard style.withNavigation else { return }
        writer.bool(true)
      case .child:
        guard let child else { return }
        try child.write(to: &writer)
      }
    }
  }

  public init(from decoder: any Decoder) throws { self = try Self.decoded(from: decoder) }
  public func encode(to encoder: any Encoder) throws { try encodeWire(to: encoder) }
}

enum CoordinatorField: String, WireField {
  case routes, tabs, selected
  static let canonicalOrder = sortedCanonically()
  static let keys = WireNames<Self>()
}

extension Coordinator: WireValue, Codable {
  static func read(from tree: JSONValue) throws(WireFailure) -> Coordinator {
    try read(object: WireObjectReader(tree))
  }

  static func read(object: WireObjectReader<CoordinatorField>) throws(WireFailure) -> Coordinator {
    var routesTree: JSONValue?
    var tabsTree: JSONValue?
    var selectedTree: JSONValue?
    object.sort { field, value in
      switch field {
      case .routes: routesTree = value
      case .tabs: tabsTree = value
      case .selected: selectedTree = value
      }
    }
    if routesTree != nil {
      try object.refuseUnknown(allowed: [.routes], present: 1, in: "a stack coordinator")
      let routes = try object.required(routesTree, .routes) { tree throws(WireFailure) in
        try WireScalars.array(tree, Route<AppScreen>.read(from:))
      }
      if let problem = StructureRules.stackProblem(routes) {
        throw object.failure(at: problem.fieldPath, problem.description)
      }
      return .stack(routes)
    }
    if tabsTree != nil {
      try object.refuseUnknown(
        allowed: [.tabs, .selected], present: selectedTree == nil ? 1 : 2, in: "a tabs coordinator")
      let tabs = try object.required(tabsTree, .tabs) { tree throws(WireFailure) in
        try WireScalars.array(tree, Coordinator.read(from:))
      }
      let selected = try object.required(selectedTree, .selected, WireScalars.integer)
      if let problem = StructureRules.tabsProblem(tabCount: tabs.count, selected: selected) {
        throw object.failure(at: problem.fieldPath, problem.description)
      }
      return .tabs(tabs, selected: selected)
    }
    throw object.failure(at: [], "a coordinator needs either \"routes\" (a stack) or \"tabs\" and \"selected\" (tabs)")
  }

  func write(to writer: inout CanonicalWriter) throws(WireFailure) {
    try writer.object(CoordinatorField.self) { writer, field throws(WireFailure) in
      switch (self, field) {
      case (.stack(let routes), .routes):
        try writer.array(routes) { writer, route throws(WireFailure) in try route.write(to: &writer) }
      case (.tabs(let tabs, _), .tabs):
        try writer.array(tabs) { writer, tab throws(WireFailure) in try tab.write(to: &writer) }
      case (.tabs(_, let selected), .selected):
        try writer.integer(selected)
      default:
        break
      }
    }
  }

  public init(from decoder: any Decoder) throws { self = try Self.decoded(from: decoder) }
  public func encode(to encoder: any Encoder) throws { try encodeWire(to: encoder) }
}

enum PathStepField: String, WireField {
  case route, tab
  static let canonicalOrder = sortedCanonically()
  static let keys = WireNames<Self>()
}

extension PathStep: WireValue, Codable {
  static func read(from tree: JSONValue) throws(WireFailure) -> PathStep {
    let object = try WireObjectReader<PathStepField>(tree)
    var routeTree: JSONValue?
    var tabTree: JSONValue?
    let present = object.sort { field, value in
      switch field {
      case .route: routeTree = value
      case .tab: tabTree = value
      }
    }
    try object.refuseUnknown(allowed: PathStepField.allCases, present: present, in: "a path step")
    switch (routeTree, tabTree) {
    case (let routeTree?, nil):
      return .route(try object.required(routeTree, .route, WireScalars.integer(atLeast: 0, named: "route")))
    case (nil, let tabTree?):
      return .tab(try object.required(tabTree, .tab, WireScalars.integer(atLeast: 0, named: "tab")))
    default: throw object.failure(at: [], "a path step is either {\"route\": i} or {\"tab\": i}")
    }
  }

  func write(to writer: inout CanonicalWriter) throws(WireFailure) {
    try writer.object(PathStepField.self) { writer, field throws(WireFailure) in
      switch (self, field) {
      case (.route(let index), .route), (.tab(let index), .tab): try writer.integer(index)
      default: break
      }
    }
  }

  public init(from decoder: any Decoder) throws { self = try Self.decoded(from: decoder) }
  public func encode(to encoder: any Encoder) throws { try encodeWire(to: encoder) }
}

extension CoordinatorPath: WireValue, Codable {
  static func read(from tree: JSONValue) throws(WireFailure) -> CoordinatorPath {
    CoordinatorPath(try WireScalars.array(tree, PathStep.read(from:)))
  }

  func write(to writer: inout CanonicalWriter) throws(WireFailure) {
    try writer.array(steps) { writer, step throws(WireFailure) in try step.write(to: &writer) }
  }

  public init(from decoder: any Decoder) throws { self = try Self.decoded(from: decoder) }
  public func encode(to encoder: any Encoder) throws { try encodeWire(to: encoder) }
}
