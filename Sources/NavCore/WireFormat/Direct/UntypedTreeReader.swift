/// Reads untyped wire-format values out of a parsed JSON tree directly, without `Codable`'s
/// containers, coding paths and metadata lookups.
///
/// The store decodes every imported line, every snapshot it rehydrates from and every event it
/// replays, so this is a hot path. It accepts only documents the `Codable` decoders accept, and
/// gives the same values (a property test holds the two together). Whenever anything is off (an
/// unknown field, a wrong type, a broken rule) it answers `nil`, and `WireFormat.decode` then runs
/// the `Codable` decoders, whose error names the field and the problem. So errors are written in
/// one place only.
enum UntypedTreeReader {
  // MARK: Events

  static func event(_ value: JSONValue) -> AnyEvent? {
    guard case .object(let members) = value, members.count <= 7,
      members.keys.allSatisfy(eventFields.contains),
      case .string(let sessionText)? = members["session"], let session = try? SessionID(sessionText),
      case .string(let timeText)? = members["at"], let at = try? Timestamp(rfc3339: timeText),
      let operationTree = members["op"], let operation = operation(operationTree)
    else { return nil }
    var seq: Int?
    if let seqTree = members["seq"] {
      guard let number = integer(seqTree), number >= 1 else { return nil }
      seq = number
    }
    var origin = EventOrigin.app
    if let originTree = members["origin"] {
      guard case .string(let name) = originTree, let named = EventOrigin(rawValue: name) else { return nil }
      origin = named
    }
    var hash: String?
    if let hashTree = members["hash"] {
      guard case .string(let text) = hashTree, AnyEvent.isHashText(text) else { return nil }
      hash = text
    }
    return AnyEvent(
      session: session, seq: seq, at: at, origin: origin, operation: operation, cause: members["cause"], hash: hash)
  }

  private static let eventFields: Set<String> = ["session", "seq", "at", "origin", "op", "cause", "hash"]

  // MARK: Operations

  static func operation(_ value: JSONValue) -> AnyOperation? {
    guard case .object(let members) = value, case .string(let name)? = members["op"] else { return nil }
    let fields: Set<String>
    switch name {
    case "start": fields = ["op", "state"]
    case "push": fields = ["op", "path", "screen", "child"]
    case "presentSheet", "presentCover": fields = ["op", "path", "screen", "withNavigation", "child"]
    case "goBack", "pop", "dismiss": fields = ["op", "path", "count"]
    case "goBackTo", "popTo", "selectTab": fields = ["op", "path", "index"]
    case "goBackToRoot", "popToRoot", "popToCurrentNavigationRoot", "dismissAll": fields = ["op", "path"]
    case "setRoutes": fields = ["op", "path", "routes"]
    case "updateScreen": fields = ["op", "path", "index", "screen"]
    case "setTabs": fields = ["op", "path", "tabs", "selected"]
    default: return nil
    }
    guard members.keys.allSatisfy(fields.contains) else { return nil }
    var path = CoordinatorPath.top
    if let pathTree = members["path"] {
      guard let steps = self.path(pathTree) else { return nil }
      path = steps
    }
    guard let kind = kind(name, members) else { return nil }
    return AnyOperation(kind, at: path)
  }

  private static func kind(_ name: String, _ members: [String: JSONValue]) -> AnyOperation.Kind? {
    func count() -> Int? {
      guard let tree = members["count"] else { return 1 }
      return integer(tree).flatMap { $0 >= 1 ? $0 : nil }
    }
    func index() -> Int? {
      members["index"].flatMap(integer).flatMap { $0 >= 0 ? $0 : nil }
    }
    // The outer optional is "readable", the inner one "present".
    func child() -> AnyCoordinator?? {
      guard let tree = members["child"] else { return .some(nil) }
      return coordinator(tree).map { .some($0) }
    }
    func withNavigation() -> Bool? {
      guard let tree = members["withNavigation"] else { return false }
      guard case .bool(let flag) = tree else { return nil }
      return flag
    }

    switch name {
    case "start":
      return members["state"].flatMap(coordinator).map { .start($0) }
    case "push":
      guard let screen = members["screen"], let child = child() else { return nil }
      return .push(screen, child: child)
    case "presentSheet", "presentCover":
      guard let screen = members["screen"], let withNavigation = withNavigation(), let child = child() else { return nil }
      return name == "presentSheet"
        ? .presentSheet(screen, withNavigation: withNavigation, child: child)
        : .presentCover(screen, withNavigation: withNavigation, child: child)
    case "goBack": return count().map { .goBack(count: $0) }
    case "pop": return count().map { .pop(count: $0) }
    case "dismiss": return count().map { .dismiss(count: $0) }
    case "goBackTo": return index().map { .goBackTo(index: $0) }
    case "popTo": return index().map { .popTo(index: $0) }
    case "selectTab": return index().map { .selectTab(index: $0) }
    case "goBackToRoot": return .goBackToRoot
    case "popToRoot": return .popToRoot
    case "popToCurrentNavigationRoot": return .popToCurrentNavigationRoot
    case "dismissAll": return .dismissAll
    case "setRoutes":
      guard let routes = members["routes"].flatMap(routes), StructureRules.stackProblem(routes) == nil else { return nil }
      return .setRoutes(routes)
    case "updateScreen":
      guard let index = index(), let screen = members["screen"] else { return nil }
      return .updateScreen(index: index, screen: screen)
    case "setTabs":
      guard let tabs = members["tabs"].flatMap(tabs), let selected = members["selected"].flatMap(integer),
        StructureRules.tabsProblem(tabCount: tabs.count, selected: selected) == nil
      else { return nil }
      return .setTabs(tabs, selected: selected)
    default:
      return nil
    }
  }

  private static func path(_ value: JSONValue) -> CoordinatorPath? {
    guard case .array(let elements) = value else { return nil }
    var steps: [PathStep] = []
    steps.reserveCapacity(elements.count)
    for element in elements {
      guard case .object(let members) = element, members.count == 1, let only = members.first,
        let index = integer(only.value), index >= 0
      else { return nil }
      switch only.key {
      case "route": steps.append(.route(index))
      case "tab": steps.append(.tab(index))
      default: return nil
      }
    }
    return CoordinatorPath(steps)
  }

  // MARK: States

  static func coordinator(_ value: JSONValue) -> AnyCoordinator? {
    guard case .object(let members) = value else { return nil }
    if let routesTree = members["routes"] {
      guard members.count == 1, let routes = routes(routesTree), StructureRules.stackProblem(routes) == nil else {
        return nil
      }
      return .stack(routes)
    }
    guard members.count == 2, let tabs = members["tabs"].flatMap(tabs),
      let selected = members["selected"].flatMap(integer),
      StructureRules.tabsProblem(tabCount: tabs.count, selected: selected) == nil
    else { return nil }
    return .tabs(tabs, selected: selected)
  }

  private static func routes(_ value: JSONValue) -> [AnyRoute]? { elements(of: value, read: route) }

  private static func tabs(_ value: JSONValue) -> [AnyCoordinator]? { elements(of: value, read: coordinator) }

  /// Every element of an array read by `read`, or `nil` when it is not an array or one element
  /// cannot be read.
  private static func elements<Element>(of value: JSONValue, read: (JSONValue) -> Element?) -> [Element]? {
    guard case .array(let elements) = value else { return nil }
    var results: [Element] = []
    results.reserveCapacity(elements.count)
    for element in elements {
      guard let result = read(element) else { return nil }
      results.append(result)
    }
    return results
  }

  private static func route(_ value: JSONValue) -> AnyRoute? {
    guard case .object(let members) = value, members.keys.allSatisfy(routeFields.contains),
      case .string(let styleName)? = members["style"], let screen = members["screen"]
    else { return nil }
    var withNavigation = false
    if let flag = members["withNavigation"] {
      guard case .bool(let value) = flag, styleName != "push" else { return nil }
      withNavigation = value
    }
    let style: RouteStyle
    switch styleName {
    case "root": style = .root(withNavigation: withNavigation)
    case "push": style = .push
    case "sheet": style = .sheet(withNavigation: withNavigation)
    case "cover": style = .cover(withNavigation: withNavigation)
    default: return nil
    }
    var child: AnyCoordinator?
    if let childTree = members["child"] {
      guard let decoded = coordinator(childTree) else { return nil }
      child = decoded
    }
    return AnyRoute(style: style, screen: screen, child: child)
  }

  private static let routeFields: Set<String> = ["style", "screen", "withNavigation", "child"]

  // MARK: Scalars

  /// An integer field as the `Codable` decoders read it: a number that is exactly an `Int`.
  private static func integer(_ value: JSONValue) -> Int? {
    guard case .number(let number) = value else { return nil }
    return Int(exactly: number)
  }
}
