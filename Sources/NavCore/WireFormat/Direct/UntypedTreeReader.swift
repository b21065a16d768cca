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

  // Each object is read in one pass over its members, switching on the key: no key is hashed,
  // and an unknown one ends the read.

  static func event(_ value: JSONValue) -> AnyEvent? {
    guard case .object(let members) = value else { return nil }
    var sessionTree, seqTree, atTree, originTree, operationTree, cause, hashTree: JSONValue?
    for (key, member) in members {
      switch key {
      case "session": sessionTree = member
      case "seq": seqTree = member
      case "at": atTree = member
      case "origin": originTree = member
      case "op": operationTree = member
      case "cause": cause = member
      case "hash": hashTree = member
      default: return nil
      }
    }
    guard case .string(let sessionText)? = sessionTree, let session = try? SessionID(sessionText),
      case .string(let timeText)? = atTree, let at = try? Timestamp(rfc3339: timeText),
      let operation = operationTree.flatMap(operation)
    else { return nil }
    var seq: Int?
    if let seqTree {
      guard let number = integer(seqTree), number >= 1 else { return nil }
      seq = number
    }
    var origin = EventOrigin.app
    if let originTree {
      guard case .string(let name) = originTree, let named = EventOrigin(rawValue: name) else { return nil }
      origin = named
    }
    var hash: String?
    if let hashTree {
      guard case .string(let text) = hashTree, AnyEvent.isHashText(text) else { return nil }
      hash = text
    }
    return AnyEvent(session: session, seq: seq, at: at, origin: origin, operation: operation, cause: cause, hash: hash)
  }

  // MARK: Operations

  /// An operation's members, by field, and which fields are present.
  private struct OperationFields {
    struct Present: OptionSet {
      let rawValue: UInt16
      static let path = Present(rawValue: 1 << 0)
      static let state = Present(rawValue: 1 << 1)
      static let screen = Present(rawValue: 1 << 2)
      static let child = Present(rawValue: 1 << 3)
      static let withNavigation = Present(rawValue: 1 << 4)
      static let count = Present(rawValue: 1 << 5)
      static let index = Present(rawValue: 1 << 6)
      static let routes = Present(rawValue: 1 << 7)
      static let tabs = Present(rawValue: 1 << 8)
      static let selected = Present(rawValue: 1 << 9)
      static let restoredFrom = Present(rawValue: 1 << 10)
    }

    var name: String?
    var present: Present = []
    var path, state, screen, child, withNavigation, count, index, routes, tabs, selected, restoredFrom: JSONValue?

    /// `nil` for a member that no operation has, or an `op` that is not a string.
    init?(_ members: [String: JSONValue]) {
      for (key, member) in members {
        switch key {
        case "op":
          guard case .string(let text) = member else { return nil }
          name = text
        case "path": (path, present) = (member, present.union(.path))
        case "state": (state, present) = (member, present.union(.state))
        case "screen": (screen, present) = (member, present.union(.screen))
        case "child": (child, present) = (member, present.union(.child))
        case "withNavigation": (withNavigation, present) = (member, present.union(.withNavigation))
        case "count": (count, present) = (member, present.union(.count))
        case "index": (index, present) = (member, present.union(.index))
        case "routes": (routes, present) = (member, present.union(.routes))
        case "tabs": (tabs, present) = (member, present.union(.tabs))
        case "selected": (selected, present) = (member, present.union(.selected))
        case "restoredFrom": (restoredFrom, present) = (member, present.union(.restoredFrom))
        default: return nil
        }
      }
    }
  }

  static func operation(_ value: JSONValue) -> AnyOperation? {
    guard case .object(let members) = value, let fields = OperationFields(members), let name = fields.name else {
      return nil
    }
    let allowed: OperationFields.Present
    switch name {
    case "start": allowed = [.state, .restoredFrom]
    case "push": allowed = [.path, .screen, .child]
    case "presentSheet", "presentCover": allowed = [.path, .screen, .withNavigation, .child]
    case "goBack", "pop", "dismiss": allowed = [.path, .count]
    case "goBackTo", "popTo", "selectTab": allowed = [.path, .index]
    case "goBackToRoot", "popToRoot", "popToCurrentNavigationRoot", "dismissAll": allowed = [.path]
    case "setRoutes": allowed = [.path, .routes]
    case "updateScreen": allowed = [.path, .index, .screen]
    case "setTabs": allowed = [.path, .tabs, .selected]
    default: return nil
    }
    guard fields.present.isSubset(of: allowed) else { return nil }
    var path = CoordinatorPath.top
    if let pathTree = fields.path {
      guard let steps = self.path(pathTree) else { return nil }
      path = steps
    }
    guard let kind = kind(name, fields) else { return nil }
    return AnyOperation(kind, at: path)
  }

  private static func kind(_ name: String, _ fields: OperationFields) -> AnyOperation.Kind? {
    func count() -> Int? {
      guard let tree = fields.count else { return 1 }
      return integer(tree).flatMap { $0 >= 1 ? $0 : nil }
    }
    func index() -> Int? {
      fields.index.flatMap(integer).flatMap { $0 >= 0 ? $0 : nil }
    }
    // The outer optional is "readable", the inner one "present".
    func child() -> AnyCoordinator?? {
      guard let tree = fields.child else { return .some(nil) }
      return coordinator(tree).map { .some($0) }
    }
    func withNavigation() -> Bool? {
      guard let tree = fields.withNavigation else { return false }
      guard case .bool(let flag) = tree else { return nil }
      return flag
    }

    switch name {
    case "start":
      guard let state = fields.state.flatMap(coordinator) else { return nil }
      guard let linkTree = fields.restoredFrom else { return .start(state, restoredFrom: nil) }
      return link(linkTree).map { .start(state, restoredFrom: $0) }
    case "push":
      guard let screen = fields.screen, let child = child() else { return nil }
      return .push(screen, child: child)
    case "presentSheet", "presentCover":
      guard let screen = fields.screen, let withNavigation = withNavigation(), let child = child() else { return nil }
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
      guard let routes = fields.routes.flatMap(routes), StructureRules.stackProblem(routes) == nil else { return nil }
      return .setRoutes(routes)
    case "updateScreen":
      guard let index = index(), let screen = fields.screen else { return nil }
      return .updateScreen(index: index, screen: screen)
    case "setTabs":
      guard let tabs = fields.tabs.flatMap(tabs), let selected = fields.selected.flatMap(integer),
        StructureRules.tabsProblem(tabCount: tabs.count, selected: selected) == nil
      else { return nil }
      return .setTabs(tabs, selected: selected)
    default:
      return nil
    }
  }

  /// `{"session": id, "seq": n}`, with `seq` at least 1 and nothing else.
  private static func link(_ value: JSONValue) -> SessionLink? {
    guard case .object(let members) = value, members.count == 2,
      case .string(let text)? = members["session"], let session = try? SessionID(text),
      let seq = members["seq"].flatMap(integer), seq >= 1
    else { return nil }
    return SessionLink(session: session, seq: seq)
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
    var routesTree, tabsTree, selectedTree: JSONValue?
    for (key, member) in members {
      switch key {
      case "routes": routesTree = member
      case "tabs": tabsTree = member
      case "selected": selectedTree = member
      default: return nil
      }
    }
    if let routesTree {
      guard tabsTree == nil, selectedTree == nil, let routes = routes(routesTree),
        StructureRules.stackProblem(routes) == nil
      else { return nil }
      return .stack(routes)
    }
    guard let tabs = tabsTree.flatMap(tabs), let selected = selectedTree.flatMap(integer),
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
    guard case .object(let members) = value else { return nil }
    var styleTree, screen, flagTree, childTree: JSONValue?
    for (key, member) in members {
      switch key {
      case "style": styleTree = member
      case "screen": screen = member
      case "withNavigation": flagTree = member
      case "child": childTree = member
      default: return nil
      }
    }
    guard case .string(let styleName)? = styleTree, let screen else { return nil }
    var withNavigation = false
    if let flagTree {
      guard case .bool(let flag) = flagTree, styleName != "push" else { return nil }
      withNavigation = flag
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
    if let childTree {
      guard let decoded = coordinator(childTree) else { return nil }
      child = decoded
    }
    return AnyRoute(style: style, screen: screen, child: child)
  }

  // MARK: Scalars

  /// An integer field as the `Codable` decoders read it: a number that is exactly an `Int`.
  private static func integer(_ value: JSONValue) -> Int? {
    guard case .number(let number) = value else { return nil }
    return Int(exactly: number)
  }
}
