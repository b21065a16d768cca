/// Writes untyped wire-format values (screens already `JSONValue`) straight to their RFC 8785
/// bytes, with no `JSONValue` tree and no `Codable` containers in between.
///
/// The store encodes every event it appends (for the hash and the stored operation) and every
/// snapshot, so this is its hot path; going through `JSONValueEncoder` and a tree cost more
/// than the SQLite inserts themselves. The output is byte for byte what
/// `WireFormat.tree(of:).canonicalBytes` gives (a property test holds the two together):
/// defaults left out, keys written in RFC 8785 order, which for these ASCII keys is byte order.
///
/// Every method returns `false`, leaving `output` unspecified, for the values the general
/// encoder refuses (an integer a double cannot hold, a time outside the years 0000 to 9999).
/// Callers then take the general path, whose error names the field.
struct UntypedCanonicalWriter {
  var output: [UInt8] = []

  init(capacity: Int = 128) {
    output.reserveCapacity(capacity)
  }

  // MARK: Events

  /// An event, with its operation already written as `operationBytes` (the store keeps those
  /// bytes as the stored operation, so they are written once).
  mutating func event(_ event: AnyEvent, operationBytes: [UInt8]) -> Bool {
    var members = Members()
    key("at", &members)
    guard timestamp(event.at) else { return false }
    if let cause = event.cause {
      key("cause", &members)
      CanonicalJSON.write(cause, to: &output)
    }
    if let hash = event.hash {
      key("hash", &members)
      CanonicalJSON.writeString(hash, to: &output)
    }
    key("op", &members)
    output.append(contentsOf: operationBytes)
    key("origin", &members)
    CanonicalJSON.writeString(event.origin.rawValue, to: &output)
    if let seq = event.seq {
      key("seq", &members)
      guard integer(seq) else { return false }
    }
    key("session", &members)
    CanonicalJSON.writeString(event.session.rawValue, to: &output)
    members.close(&output)
    return true
  }

  // MARK: Operations

  /// An operation: `op` and its own fields, `path` only when it is not the top.
  mutating func operation(_ operation: AnyOperation) -> Bool {
    var members = Members()
    let path = operation.path
    switch operation.kind {
    case .start(let state, let restoredFrom):
      // A path on `start` is refused when read, but written like any other (as the general
      // encoder does), so that such a value has the same bytes on both paths.
      opName("start", &members)
      guard self.path(path, &members) else { return false }
      if let restoredFrom {
        key("restoredFrom", &members)
        guard link(restoredFrom) else { return false }
      }
      key("state", &members)
      return coordinator(state) && members.close(&output)
    case .push(let screen, let child):
      if let child {
        key("child", &members)
        guard coordinator(child) else { return false }
      }
      opName("push", &members)
      guard self.path(path, &members) else { return false }
      key("screen", &members)
      CanonicalJSON.write(screen, to: &output)
    case .presentSheet(let screen, let withNavigation, let child),
      .presentCover(let screen, let withNavigation, let child):
      if let child {
        key("child", &members)
        guard coordinator(child) else { return false }
      }
      opName(operation.name, &members)
      guard self.path(path, &members) else { return false }
      key("screen", &members)
      CanonicalJSON.write(screen, to: &output)
      if withNavigation { trueMember("withNavigation", &members) }
    case .goBack(let count), .pop(let count), .dismiss(let count):
      if count != 1 {
        key("count", &members)
        guard integer(count) else { return false }
      }
      opName(operation.name, &members)
      guard self.path(path, &members) else { return false }
    case .goBackTo(let index), .popTo(let index), .selectTab(let index):
      key("index", &members)
      guard integer(index) else { return false }
      opName(operation.name, &members)
      guard self.path(path, &members) else { return false }
    case .goBackToRoot, .popToRoot, .popToCurrentNavigationRoot, .dismissAll:
      opName(operation.name, &members)
      guard self.path(path, &members) else { return false }
    case .setRoutes(let routes):
      opName("setRoutes", &members)
      guard self.path(path, &members) else { return false }
      key("routes", &members)
      guard self.routes(routes) else { return false }
    case .updateScreen(let index, let screen):
      key("index", &members)
      guard integer(index) else { return false }
      opName("updateScreen", &members)
      guard self.path(path, &members) else { return false }
      key("screen", &members)
      CanonicalJSON.write(screen, to: &output)
    case .setTabs(let tabs, let selected):
      opName("setTabs", &members)
      guard self.path(path, &members) else { return false }
      key("selected", &members)
      guard integer(selected) else { return false }
      key("tabs", &members)
      guard self.tabs(tabs) else { return false }
    }
    return members.close(&output)
  }

  private mutating func opName(_ name: String, _ members: inout Members) {
    key("op", &members)
    CanonicalJSON.writeString(name, to: &output)
  }

  private mutating func path(_ path: CoordinatorPath, _ members: inout Members) -> Bool {
    guard !path.isTop else { return true }
    key("path", &members)
    output.append(UInt8(ascii: "["))
    for (position, step) in path.steps.enumerated() {
      if position > 0 { output.append(UInt8(ascii: ",")) }
      var stepMembers = Members()
      switch step {
      case .route(let index):
        key("route", &stepMembers)
        guard integer(index) else { return false }
      case .tab(let index):
        key("tab", &stepMembers)
        guard integer(index) else { return false }
      }
      stepMembers.close(&output)
    }
    output.append(UInt8(ascii: "]"))
    return true
  }

  /// `{"seq":n,"session":"id"}`.
  private mutating func link(_ link: SessionLink) -> Bool {
    var members = Members()
    key("seq", &members)
    guard integer(link.seq) else { return false }
    key("session", &members)
    CanonicalJSON.writeString(link.session.rawValue, to: &output)
    return members.close(&output)
  }

  // MARK: States

  /// A coordinator: `{"routes":[...]}` or `{"selected":n,"tabs":[...]}`.
  mutating func coordinator(_ coordinator: AnyCoordinator) -> Bool {
    var members = Members()
    switch coordinator {
    case .stack(let routes):
      key("routes", &members)
      guard self.routes(routes) else { return false }
    case .tabs(let tabs, let selected):
      key("selected", &members)
      guard integer(selected) else { return false }
      key("tabs", &members)
      guard self.tabs(tabs) else { return false }
    }
    return members.close(&output)
  }

  private mutating func routes(_ routes: [AnyRoute]) -> Bool {
    array(routes) { writer, route in writer.route(route) }
  }

  private mutating func tabs(_ tabs: [AnyCoordinator]) -> Bool {
    array(tabs) { writer, tab in writer.coordinator(tab) }
  }

  /// `[a,b,...]`, each element written by `write`; `false` as soon as one cannot be.
  private mutating func array<Element>(_ elements: [Element], _ write: (inout Self, Element) -> Bool) -> Bool {
    output.append(UInt8(ascii: "["))
    for (position, element) in elements.enumerated() {
      if position > 0 { output.append(UInt8(ascii: ",")) }
      guard write(&self, element) else { return false }
    }
    output.append(UInt8(ascii: "]"))
    return true
  }

  private mutating func route(_ route: AnyRoute) -> Bool {
    var members = Members()
    if let child = route.child {
      key("child", &members)
      guard coordinator(child) else { return false }
    }
    key("screen", &members)
    CanonicalJSON.write(route.screen, to: &output)
    key("style", &members)
    CanonicalJSON.writeString(route.style.name, to: &output)
    if route.style.withNavigation { trueMember("withNavigation", &members) }
    return members.close(&output)
  }

  // MARK: Scalars

  /// An integer field. The general encoder stores integers as doubles and refuses one a double
  /// would round, so this does too.
  private mutating func integer(_ value: Int) -> Bool {
    guard let double = Double(exactly: value) else { return false }
    CanonicalJSON.writeNumber(double, to: &output)
    return true
  }

  private mutating func timestamp(_ time: Timestamp) -> Bool {
    guard (Timestamp.earliest...Timestamp.latest).contains(time.millisecondsSince1970) else { return false }
    output.append(UInt8(ascii: "\""))
    time.appendRFC3339(to: &output)
    output.append(UInt8(ascii: "\""))
    return true
  }

  // MARK: Members

  /// Tracks whether an object has been opened and needs a comma before its next member.
  private struct Members {
    var opened = false

    /// Closes the object (an empty one is `{}`). Returns `true`, so it can end a chain of checks.
    @discardableResult
    func close(_ output: inout [UInt8]) -> Bool {
      if !opened { output.append(UInt8(ascii: "{")) }
      output.append(UInt8(ascii: "}"))
      return true
    }
  }

  /// Opens the object or writes the comma, then the key and its colon. Keys are ASCII and need
  /// no escaping.
  private mutating func key(_ name: StaticString, _ members: inout Members) {
    output.append(members.opened ? UInt8(ascii: ",") : UInt8(ascii: "{"))
    members.opened = true
    output.append(UInt8(ascii: "\""))
    output.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    output.append(contentsOf: #"":"#.utf8)
  }

  private mutating func trueMember(_ name: StaticString, _ members: inout Members) {
    key(name, &members)
    output.append(contentsOf: "true".utf8)
  }
}
