/// Operations in the wire format (docs/spec/wire-format.md, "Operation"): `{"op": name, ...fields}`.
///
/// Each operation accepts exactly its own fields (and `path`, except `start`); `count` defaults
/// to 1 and must be at least 1; indices are whole numbers from 0. Encoding writes the normalized
/// form, leaving out defaults (`path` [], `count` 1, `withNavigation` false), so one operation
/// has one encoding and one hash.
extension NavigationOperation: Codable {
  /// The fields each operation takes, besides `op` and `path`.
  static var fieldsByOperation: [String: [String]] {
    [
      "start": ["state", "restoredFrom"],
      "push": ["screen", "child"],
      "presentSheet": ["screen", "withNavigation", "child"],
      "presentCover": ["screen", "withNavigation", "child"],
      "goBack": ["count"],
      "goBackTo": ["index"],
      "goBackToRoot": [],
      "pop": ["count"],
      "popTo": ["index"],
      "popToRoot": [],
      "popToCurrentNavigationRoot": [],
      "dismiss": ["count"],
      "dismissAll": [],
      "setRoutes": ["routes"],
      "updateScreen": ["index", "screen"],
      "selectTab": ["index"],
      "setTabs": ["tabs", "selected"],
    ]
  }

  /// Every operation name, in the spec's order, for messages.
  static var operationNames: [String] {
    [
      "start", "push", "presentSheet", "presentCover", "goBack", "goBackTo", "goBackToRoot", "pop", "popTo",
      "popToRoot", "popToCurrentNavigationRoot", "dismiss", "dismissAll", "setRoutes", "updateScreen",
      "selectTab", "setTabs",
    ]
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: AnyCodingKey.self)
    let name = try container.required(String.self, "op")
    guard let fields = Self.fieldsByOperation[name] else {
      throw container.failure(
        at: [AnyCodingKey("op")],
        "unknown operation \"\(name)\" (expected one of: \(Self.operationNames.joined(separator: ", ")))")
    }
    if name == "push", container.contains(AnyCodingKey("withNavigation")) {
      throw container.failure(
        at: [AnyCodingKey("withNavigation")],
        "withNavigation is not allowed on push: a pushed screen lives in the navigation stack below it")
    }
    let pathField = name == "start" ? [] : ["path"]
    try container.rejectUnknownFields(allowed: ["op"] + pathField + fields, in: "a \(name) operation")
    path = try container.optional(CoordinatorPath.self, "path") ?? .top
    kind = try Self.decodeKind(name, from: container)
  }

  private static func decodeKind(_ name: String, from container: WireContainer) throws -> Kind {
    func count() throws -> Int { try container.optionalInteger("count", atLeast: 1) ?? 1 }
    func index() throws -> Int { try container.requiredInteger("index", atLeast: 0) }
    func screen() throws -> Screen { try container.required(Screen.self, "screen") }
    func child() throws -> Coordinator<Screen>? { try container.optional(Coordinator<Screen>.self, "child") }
    func withNavigation() throws -> Bool { try container.optional(Bool.self, "withNavigation") ?? false }

    switch name {
    case "start":
      return .start(
        try container.required(Coordinator<Screen>.self, "state"),
        restoredFrom: try container.optional(SessionLink.self, "restoredFrom"))
    case "push": return .push(try screen(), child: try child())
    case "presentSheet": return .presentSheet(try screen(), withNavigation: try withNavigation(), child: try child())
    case "presentCover": return .presentCover(try screen(), withNavigation: try withNavigation(), child: try child())
    case "goBack": return .goBack(count: try count())
    case "goBackTo": return .goBackTo(index: try index())
    case "goBackToRoot": return .goBackToRoot
    case "pop": return .pop(count: try count())
    case "popTo": return .popTo(index: try index())
    case "popToRoot": return .popToRoot
    case "popToCurrentNavigationRoot": return .popToCurrentNavigationRoot
    case "dismiss": return .dismiss(count: try count())
    case "dismissAll": return .dismissAll
    case "setRoutes":
      let routes = try container.required([Route<Screen>].self, "routes")
      if let problem = StructureRules.stackProblem(routes) {
        throw container.failure(at: problem.fieldPath, problem.description)
      }
      return .setRoutes(routes)
    case "updateScreen": return .updateScreen(index: try index(), screen: try screen())
    case "selectTab": return .selectTab(index: try index())
    default:  // "setTabs": the table above admits no other name
      let tabs = try container.required([Coordinator<Screen>].self, "tabs")
      let selected = try container.required(Int.self, "selected")
      if let problem = StructureRules.tabsProblem(tabCount: tabs.count, selected: selected) {
        throw container.failure(at: problem.fieldPath, problem.description)
      }
      return .setTabs(tabs, selected: selected)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: AnyCodingKey.self)
    func put<T: Encodable>(_ value: T, _ field: String) throws {
      try container.encode(value, forKey: AnyCodingKey(field))
    }
    try put(name, "op")
    if !path.isTop { try put(path, "path") }
    switch kind {
    case .start(let state, let restoredFrom):
      try put(state, "state")
      if let restoredFrom { try put(restoredFrom, "restoredFrom") }
    case .push(let screen, let child):
      try put(screen, "screen")
      if let child { try put(child, "child") }
    case .presentSheet(let screen, let withNavigation, let child),
      .presentCover(let screen, let withNavigation, let child):
      try put(screen, "screen")
      if withNavigation { try put(true, "withNavigation") }
      if let child { try put(child, "child") }
    case .goBack(let count), .pop(let count), .dismiss(let count):
      if count != 1 { try put(count, "count") }
    case .goBackTo(let index), .popTo(let index), .selectTab(let index):
      try put(index, "index")
    case .goBackToRoot, .popToRoot, .popToCurrentNavigationRoot, .dismissAll:
      break
    case .setRoutes(let routes):
      try put(routes, "routes")
    case .updateScreen(let index, let screen):
      try put(index, "index")
      try put(screen, "screen")
    case .setTabs(let tabs, let selected):
      try put(tabs, "tabs")
      try put(selected, "selected")
    }
  }
}
