/// Operations in the wire format (docs/spec/wire-format.md, "Operation"): `{"op": name,
/// ...fields}`. What each operation is made of lives in `OperationCatalog.swift`; this file
/// reads and writes any of them from that description, the same way for all.
///
/// Each operation accepts exactly its own fields (and `path`, except `start`); `count` defaults
/// to 1 and must be at least 1; indices are whole numbers from 0. Writing gives the normalized
/// form, leaving out defaults (`path` [], `count` 1, `withNavigation` false), so one operation
/// has one encoding and one hash.

/// Every member an operation object can have, in the spec's order.
enum OperationField: String, WireField {
  case op, path, state, restoredFrom, screen, withNavigation, child, count, index, routes, tabs, selected
  static let canonicalOrder = sortedCanonically()
}

/// The defaults an operation's fields take when absent, and are left out at when written.
enum OperationDefaults {
  static let count = 1
  static let withNavigation = false
}

extension NavigationOperation: WireValue, Codable {
  static func read(from tree: JSONValue) throws(WireFailure) -> NavigationOperation {
    let fields = try OperationFieldReader<Screen>(tree)
    let nameText = try fields.object.required(fields[.op], .op, WireScalars.string)
    guard let name = OperationName(rawValue: nameText) else {
      throw WireFailure(
        at: [AnyCodingKey("op")],
        "unknown operation \"\(nameText)\" (expected one of: \(OperationName.allCases.map(\.rawValue).joined(separator: ", ")))")
    }
    if let refusal = name.refusedField, fields[refusal.field] != nil {
      throw WireFailure(at: [AnyCodingKey(refusal.field.rawValue)], refusal.reason)
    }
    let own = name.fields
    let present = 1 + (name.takesPath && fields[.path] != nil ? 1 : 0) + own.count(where: { fields[$0] != nil })
    try fields.object.refuseUnknown(
      allowed: [.op] + (name.takesPath ? [.path] : []) + own, present: present, in: "a \(name.rawValue) operation")
    let path = try fields.object.optional(fields[.path], .path, CoordinatorPath.read(from:)) ?? .top
    return NavigationOperation(try Kind(name, reading: fields), at: path)
  }

  func write(to writer: inout CanonicalWriter) throws(WireFailure) {
    let values = kind.fieldValues
    try writer.object(OperationField.self) { writer, field throws(WireFailure) in
      switch field {
      case .op: writer.string(kind.name)
      case .path:
        // A path on `start` is refused when read, but written like any other.
        guard !path.isTop else { return false }
        try path.write(to: &writer)
      case .state:
        guard let state = values.state else { return false }
        try state.write(to: &writer)
      case .restoredFrom:
        guard let link = values.restoredFrom else { return false }
        try link.write(to: &writer)
      case .screen:
        guard let screen = values.screen else { return false }
        try WireScreens.write(screen, to: &writer)
      case .withNavigation:
        guard let flag = values.withNavigation, flag != OperationDefaults.withNavigation else { return false }
        writer.bool(flag)
      case .child:
        guard let child = values.child else { return false }
        try child.write(to: &writer)
      case .count:
        guard let count = values.count, count != OperationDefaults.count else { return false }
        try writer.integer(count)
      case .index:
        guard let index = values.index else { return false }
        try writer.integer(index)
      case .routes:
        guard let routes = values.routes else { return false }
        try writer.array(routes) { writer, route throws(WireFailure) in try route.write(to: &writer) }
      case .tabs:
        guard let tabs = values.tabs else { return false }
        try writer.array(tabs) { writer, tab throws(WireFailure) in try tab.write(to: &writer) }
      case .selected:
        guard let selected = values.selected else { return false }
        try writer.integer(selected)
      }
      return true
    }
  }

  public init(from decoder: any Decoder) throws { self = try Self.decoded(from: decoder) }
  public func encode(to encoder: any Encoder) throws { try encodeWire(to: encoder) }
}

/// An operation object's members sorted into its fields, with a reader per field: the field's
/// type, range, default and structure rule, written once for every operation that has it.
struct OperationFieldReader<Screen: NavigationScreen> {
  let object: WireObjectReader<OperationField>
  private var slots: Slots

  /// One member per field, `nil` when absent.
  private struct Slots {
    var op, path, state, restoredFrom, screen, withNavigation, child, count, index, routes, tabs, selected: JSONValue?

    subscript(field: OperationField) -> JSONValue? {
      get {
        switch field {
        case .op: op
        case .path: path
        case .state: state
        case .restoredFrom: restoredFrom
        case .screen: screen
        case .withNavigation: withNavigation
        case .child: child
        case .count: count
        case .index: index
        case .routes: routes
        case .tabs: tabs
        case .selected: selected
        }
      }
      set {
        switch field {
        case .op: op = newValue
        case .path: path = newValue
        case .state: state = newValue
        case .restoredFrom: restoredFrom = newValue
        case .screen: screen = newValue
        case .withNavigation: withNavigation = newValue
        case .child: child = newValue
        case .count: count = newValue
        case .index: index = newValue
        case .routes: routes = newValue
        case .tabs: tabs = newValue
        case .selected: selected = newValue
        }
      }
    }
  }

  init(_ tree: JSONValue) throws(WireFailure) {
    object = try WireObjectReader(tree)
    var slots = Slots()
    object.sort { field, value in slots[field] = value }
    self.slots = slots
  }

  /// The member for `field`, if present.
  subscript(field: OperationField) -> JSONValue? { slots[field] }

  func readState() throws(WireFailure) -> Coordinator<Screen> {
    try object.required(slots.state, .state, Coordinator<Screen>.read(from:))
  }

  func readRestoredFrom() throws(WireFailure) -> SessionLink? {
    try object.optional(slots.restoredFrom, .restoredFrom, SessionLink.read(from:))
  }

  func readScreen() throws(WireFailure) -> Screen {
    try object.required(slots.screen, .screen, WireScreens.read)
  }

  func readWithNavigation() throws(WireFailure) -> Bool {
    try object.optional(slots.withNavigation, .withNavigation, WireScalars.bool) ?? OperationDefaults.withNavigation
  }

  func readChild() throws(WireFailure) -> Coordinator<Screen>? {
    try object.optional(slots.child, .child, Coordinator<Screen>.read(from:))
  }

  func readCount() throws(WireFailure) -> Int {
    try object.optional(slots.count, .count, WireScalars.integer(atLeast: 1, named: "count")) ?? OperationDefaults.count
  }

  func readIndex() throws(WireFailure) -> Int {
    try object.required(slots.index, .index, WireScalars.integer(atLeast: 0, named: "index"))
  }

  /// A stack's routes, which must make a stack (a root first, and only first).
  func readRoutes() throws(WireFailure) -> [Route<Screen>] {
    let routes = try object.required(slots.routes, .routes) { tree throws(WireFailure) in
      try WireScalars.array(tree, Route<Screen>.read(from:))
    }
    if let problem = StructureRules.stackProblem(routes) { throw object.failure(at: problem.fieldPath, problem.description) }
    return routes
  }

  /// Tabs and the selected one, which must exist.
  func readTabs() throws(WireFailure) -> (tabs: [Coordinator<Screen>], selected: Int) {
    let tabs = try object.required(slots.tabs, .tabs) { tree throws(WireFailure) in
      try WireScalars.array(tree, Coordinator<Screen>.read(from:))
    }
    let selected = try object.required(slots.selected, .selected, WireScalars.integer)
    if let problem = StructureRules.tabsProblem(tabCount: tabs.count, selected: selected) {
      throw object.failure(at: problem.fieldPath, problem.description)
    }
    return (tabs, selected)
  }
}

/// An operation's own fields as values, `nil` where the operation has no such field: what
/// writing, the export's columns and anything else that looks inside an operation read.
struct OperationFieldValues<Screen: NavigationScreen> {
  var state: Coordinator<Screen>?
  var restoredFrom: SessionLink?
  var screen: Screen?
  var withNavigation: Bool?
  var child: Coordinator<Screen>?
  var count: Int?
  var index: Int?
  var routes: [Route<Screen>]?
  var tabs: [Coordinator<Screen>]?
  var selected: Int?
}
