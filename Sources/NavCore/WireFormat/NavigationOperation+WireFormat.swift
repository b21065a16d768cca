import NavJSON

/// Operations in the wire format (docs/spec/wire-format.md, "Operation"): `{"op": name,
/// ...fields}`. What each operation is made of lives in `OperationCatalog.swift`; this file
/// reads and writes any of them from that description, the same way for all.
///
/// Each operation accepts exactly its own fields (and `path`, except `start` and the lifecycle
/// events); `count` defaults to 1 and must be at least 1; indices are whole numbers from 0.
/// Writing gives the normalized form, leaving out defaults (`path` [], `count` 1,
/// `withNavigation` false), so one operation has one encoding and one hash, and refuses what
/// reading would refuse, so that whatever is written reads back.

/// Every member an operation object can have, in the spec's order.
enum OperationField: String, WireField {
  case op, path, state, restoredFrom, context, screen, withNavigation, child, count, index, routes, tabs, selected
  case reason, launch
  static let canonicalOrder = sortedCanonically()
  static let keys = WireNames<Self>()

  /// The field's place among the fifteen, for `OperationFieldReader`'s member index.
  var slot: Int {
    switch self {
    case .op: 0
    case .path: 1
    case .state: 2
    case .restoredFrom: 3
    case .screen: 4
    case .withNavigation: 5
    case .child: 6
    case .count: 7
    case .index: 8
    case .routes: 9
    case .tabs: 10
    case .selected: 11
    case .context: 12
    case .reason: 13
    case .launch: 14
    }
  }
}

/// The defaults an operation's fields take when absent, and are left out at when written.
enum OperationDefaults {
  static let count = 1
  static let withNavigation = false
}

extension NavigationOperation: WireValue, Codable {
  static func read(from tree: JSONValue) throws(WireFailure) -> NavigationOperation {
    try read(object: WireObjectReader(tree))
  }

  static func read(object: WireObjectReader<OperationField>) throws(WireFailure) -> NavigationOperation {
    let fields = OperationFieldReader(object)
    let (name, path) = try readNameAndPath(fields)
    return NavigationOperation(try Kind(name, reading: fields), at: path)
  }

  /// What every operation reads first, in this order: its name, the fields its name allows
  /// (and the one it refuses with a reason), and its path.
  static func readNameAndPath(_ fields: OperationFieldReader) throws(WireFailure) -> (OperationName, CoordinatorPath) {
    let nameText = try fields.object.required(fields[.op], .op, WireScalars.string)
    guard let name = OperationName.named(nameText) else {
      throw WireFailure(
        at: [AnyCodingKey("op")],
        "unknown operation \"\(nameText)\" (expected one of: \(OperationName.allCases.map(\.rawValue).joined(separator: ", ")))"
      )
    }
    if let refusal = name.refusedField, fields[refusal.field] != nil {
      throw WireFailure(at: [AnyCodingKey(refusal.field.rawValue)], refusal.reason)
    }
    let own = name.fields
    let present = 1 + (name.takesPath && fields[.path] != nil ? 1 : 0) + own.count(where: { fields[$0] != nil })
    try fields.object.refuseUnknown(
      allowed: [.op] + (name.takesPath ? [.path] : []) + own, present: present, in: "a \(name.rawValue) operation")
    let path = try fields.object.optional(fields[.path], .path, CoordinatorPath.read(from:)) ?? .top
    return (name, path)
  }

  func write(to writer: inout CanonicalWriter) throws(WireFailure) {
    let values = kind.fieldValues
    try writer.object(OperationField.self) { writer, field throws(WireFailure) in
      switch field {
      case .op: writer.string(kind.name)
      case .path:
        guard !path.isTop else { return }
        // What reading refuses is not written: `start` and the lifecycle events take no path.
        guard kind.operationName.takesPath else { throw WireFailure("\(kind.name) takes no path") }
        try path.write(to: &writer)
      case .state:
        guard let state = values.state else { return }
        try state.write(to: &writer)
      case .restoredFrom:
        guard let link = values.restoredFrom else { return }
        try link.write(to: &writer)
      case .context:
        guard let context = values.context, !context.isEmpty else { return }
        try context.write(to: &writer)
      case .launch:
        guard let launch = values.launch else { return }
        if let problem = launch.problem(restoredFrom: values.restoredFrom) { throw WireFailure("launch: \(problem)") }
        try launch.write(to: &writer)
      case .screen:
        guard let screen = values.screen else { return }
        try WireScreens.write(screen, to: &writer)
      case .withNavigation:
        guard let flag = values.withNavigation, flag != OperationDefaults.withNavigation else { return }
        writer.bool(flag)
      case .child:
        guard let child = values.child else { return }
        try child.write(to: &writer)
      case .count:
        guard let count = values.count, count != OperationDefaults.count else { return }
        try WireScalars.check(count, atLeast: 1, named: OperationField.count.rawValue)
        try writer.integer(count)
      case .index:
        guard let index = values.index else { return }
        try WireScalars.check(index, atLeast: 0, named: OperationField.index.rawValue)
        try writer.integer(index)
      case .routes:
        guard let routes = values.routes else { return }
        if let problem = StructureRules.stackProblem(routes) { throw WireFailure("routes: \(problem)") }
        try writer.array(routes) { writer, route throws(WireFailure) in try route.write(to: &writer) }
      case .tabs:
        guard let tabs = values.tabs else { return }
        try writer.array(tabs) { writer, tab throws(WireFailure) in try tab.write(to: &writer) }
      case .selected:
        guard let selected = values.selected else { return }
        if let problem = StructureRules.tabsProblem(tabCount: values.tabs?.count ?? 0, selected: selected) {
          throw WireFailure("\(problem)")
        }
        try writer.integer(selected)
      case .reason:
        guard let reason = values.reason else { return }
        try WireScalars.checkText(reason, named: OperationField.reason.rawValue)
        writer.string(reason)
      }
    }
  }

  public init(from decoder: any Decoder) throws { self = try Self.decoded(from: decoder) }
  public func encode(to encoder: any Encoder) throws { try encodeWire(to: encoder) }
}

/// An operation object's members sorted into its fields, with a reader per field: the field's
/// type, range, default and structure rule, written once for every operation that has it.
///
/// Not generic itself (only its readers are), so reading an operation instantiates no type
/// metadata at run time.
struct OperationFieldReader {
  let object: WireObjectReader<OperationField>
  /// The object's members, and where each field's member is among them (-1: absent): found
  /// in one pass, then each field is read in constant time and with no copy of the others.
  private let members: [(String, JSONValue)]
  private var positions = SIMD16<Int8>(repeating: -1)

  init(_ object: WireObjectReader<OperationField>) {
    self.object = object
    members = object.memberList
    // An object too large to index has unknown fields, which reading refuses anyway.
    for (position, member) in members.enumerated() where position < Int8.max {
      if let field = OperationField.named(member.0) { positions[field.slot] = Int8(position) }
    }
  }

  /// The member for `field`, if present.
  subscript(field: OperationField) -> JSONValue? {
    let position = Int(positions[field.slot])
    guard position >= 0 else { return Optional.none }  // not `nil`, which would be JSON's null
    return members[position].1
  }

  func readState<AppScreen: NavigationScreen>() throws(WireFailure) -> Coordinator<AppScreen> {
    try object.required(self[.state], .state, Coordinator<AppScreen>.read(from:))
  }

  func readRestoredFrom() throws(WireFailure) -> SessionLink? {
    try object.optional(self[.restoredFrom], .restoredFrom, SessionLink.read(from:))
  }

  func readContext() throws(WireFailure) -> SessionContext? {
    try object.optional(self[.context], .context) { tree throws(WireFailure) in try SessionContext.read(from: tree) }
  }

  /// What the launch did, which must agree with `restoredFrom`: a restore names its session,
  /// a fresh or declined start none.
  func readLaunch(restoredFrom: SessionLink?) throws(WireFailure) -> LaunchRecord? {
    let launch = try object.optional(self[.launch], .launch, LaunchRecord.read(from:))
    if let launch, let problem = launch.problem(restoredFrom: restoredFrom) {
      throw object.failure(at: [AnyCodingKey(OperationField.launch.rawValue)], problem)
    }
    return launch
  }

  func readReason() throws(WireFailure) -> String? {
    try object.optional(self[.reason], .reason) { value throws(WireFailure) in
      let text = try WireScalars.string(value)
      try WireScalars.checkText(text, named: OperationField.reason.rawValue)
      return text
    }
  }

  func readScreen<AppScreen: NavigationScreen>() throws(WireFailure) -> AppScreen {
    try object.required(self[.screen], .screen, WireScreens.read)
  }

  func readWithNavigation() throws(WireFailure) -> Bool {
    try object.optional(self[.withNavigation], .withNavigation, WireScalars.bool) ?? OperationDefaults.withNavigation
  }

  func readChild<AppScreen: NavigationScreen>() throws(WireFailure) -> Coordinator<AppScreen>? {
    try object.optional(self[.child], .child, Coordinator<AppScreen>.read(from:))
  }

  func readCount() throws(WireFailure) -> Int {
    try object.optional(self[.count], .count, WireScalars.integer(atLeast: 1, named: "count"))
      ?? OperationDefaults.count
  }

  func readIndex() throws(WireFailure) -> Int {
    try object.required(self[.index], .index, WireScalars.integer(atLeast: 0, named: "index"))
  }

  /// A stack's routes, which must make a stack (a root first, and only first).
  func readRoutes<AppScreen: NavigationScreen>() throws(WireFailure) -> [Route<AppScreen>] {
    let routes = try object.required(self[.routes], .routes) { tree throws(WireFailure) in
      try WireScalars.array(tree, Route<AppScreen>.read(from:))
    }
    if let problem = StructureRules.stackProblem(routes) {
      throw object.failure(at: problem.fieldPath, problem.description)
    }
    return routes
  }

  /// Tabs and the selected one, which must exist.
  func readTabs<AppScreen: NavigationScreen>() throws(WireFailure) -> (tabs: [Coordinator<AppScreen>], selected: Int) {
    let tabs = try object.required(self[.tabs], .tabs) { tree throws(WireFailure) in
      try WireScalars.array(tree, Coordinator<AppScreen>.read(from:))
    }
    let selected = try object.required(self[.selected], .selected, WireScalars.integer)
    if let problem = StructureRules.tabsProblem(tabCount: tabs.count, selected: selected) {
      throw object.failure(at: problem.fieldPath, problem.description)
    }
    return (tabs, selected)
  }
}

/// An operation's own fields as values, `nil` where the operation has no such field: what
/// writing, the export's columns and anything else that looks inside an operation read.
struct OperationFieldValues<AppScreen: NavigationScreen> {
  var state: Coordinator<AppScreen>?
  var restoredFrom: SessionLink?
  var context: SessionContext?
  var launch: LaunchRecord?
  var screen: AppScreen?
  var withNavigation: Bool?
  var child: Coordinator<AppScreen>?
  var count: Int?
  var index: Int?
  var routes: [Route<AppScreen>]?
  var tabs: [Coordinator<AppScreen>]?
  var selected: Int?
  var reason: String?
}
