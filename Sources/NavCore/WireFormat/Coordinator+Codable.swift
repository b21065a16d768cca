/// Route, coordinator and path in the wire format (docs/spec/wire-format.md, "Route", "Coordinator",
/// "Path"). Decoding accepts exactly those shapes; encoding writes the normalized form:
/// `withNavigation` only when true, `child` only when present.
extension Route: Codable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: AnyCodingKey.self)
    let styleName = try container.required(String.self, "style")
    if styleName == "push", container.contains(AnyCodingKey("withNavigation")) {
      throw container.failure(
        at: [AnyCodingKey("withNavigation")],
        "withNavigation is not allowed on a push route: a pushed screen lives in the navigation stack below it")
    }
    try container.rejectUnknownFields(allowed: ["style", "screen", "withNavigation", "child"], in: "a route")
    let withNavigation = try container.optional(Bool.self, "withNavigation") ?? false
    switch styleName {
    case "root": style = .root(withNavigation: withNavigation)
    case "push": style = .push
    case "sheet": style = .sheet(withNavigation: withNavigation)
    case "cover": style = .cover(withNavigation: withNavigation)
    default:
      throw container.failure(
        at: [AnyCodingKey("style")], "unknown style \"\(styleName)\" (expected root, push, sheet or cover)")
    }
    screen = try container.required(Screen.self, "screen")
    child = try container.optional(Coordinator<Screen>.self, "child")
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: AnyCodingKey.self)
    try container.encode(style.name, forKey: AnyCodingKey("style"))
    if style.withNavigation {
      try container.encode(true, forKey: AnyCodingKey("withNavigation"))
    }
    try container.encode(screen, forKey: AnyCodingKey("screen"))
    if let child {
      try container.encode(child, forKey: AnyCodingKey("child"))
    }
  }
}

extension Coordinator: Codable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: AnyCodingKey.self)
    if container.contains(AnyCodingKey("routes")) {
      try container.rejectUnknownFields(allowed: ["routes"], in: "a stack coordinator")
      let routes = try container.required([Route<Screen>].self, "routes")
      if let problem = StructureRules.stackProblem(routes) {
        throw container.failure(at: problem.fieldPath, problem.description)
      }
      self = .stack(routes)
    } else if container.contains(AnyCodingKey("tabs")) {
      try container.rejectUnknownFields(allowed: ["tabs", "selected"], in: "a tabs coordinator")
      let tabs = try container.required([Coordinator].self, "tabs")
      let selected = try container.required(Int.self, "selected")
      if let problem = StructureRules.tabsProblem(tabCount: tabs.count, selected: selected) {
        throw container.failure(at: problem.fieldPath, problem.description)
      }
      self = .tabs(tabs, selected: selected)
    } else {
      throw container.failure(
        at: [], "a coordinator needs either \"routes\" (a stack) or \"tabs\" and \"selected\" (tabs)")
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: AnyCodingKey.self)
    switch self {
    case .stack(let routes):
      try container.encode(routes, forKey: AnyCodingKey("routes"))
    case .tabs(let tabs, let selected):
      try container.encode(tabs, forKey: AnyCodingKey("tabs"))
      try container.encode(selected, forKey: AnyCodingKey("selected"))
    }
  }
}

extension PathStep: Codable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: AnyCodingKey.self)
    try container.rejectUnknownFields(allowed: ["route", "tab"], in: "a path step")
    let isRoute = container.contains(AnyCodingKey("route"))
    let isTab = container.contains(AnyCodingKey("tab"))
    guard isRoute != isTab else {
      throw container.failure(at: [], "a path step is either {\"route\": i} or {\"tab\": i}")
    }
    let field = isRoute ? "route" : "tab"
    let index = try container.requiredInteger(field, atLeast: 0)
    self = isRoute ? .route(index) : .tab(index)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: AnyCodingKey.self)
    switch self {
    case .route(let index): try container.encode(index, forKey: AnyCodingKey("route"))
    case .tab(let index): try container.encode(index, forKey: AnyCodingKey("tab"))
    }
  }
}

extension CoordinatorPath: Codable {
  public init(from decoder: any Decoder) throws {
    steps = try [PathStep](from: decoder)
  }

  public func encode(to encoder: any Encoder) throws {
    try steps.encode(to: encoder)
  }
}
