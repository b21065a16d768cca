import NavJSON

/// What the launch that began a session did, and why: kept in the session's `start`
/// (`"launch"`), so that support reads from the history alone whether the user was taken back
/// where they were, only to their tabs' roots, or to the app's first screen, and what an update
/// could no longer restore.
///
/// A launch decided by the store (`SessionStore.launch(as:policy:)`) hands its record to the
/// recorder, which writes it; apps never build one.
package struct LaunchRecord: Hashable, Sendable, CustomStringConvertible {
  /// What the launch showed.
  package enum Outcome: String, Hashable, Sendable, CaseIterable {
    /// The latest session's whole state (less any route `dropped` lists).
    case restored
    /// Only the roots of the latest session's state, because the launch before restored and
    /// did not settle.
    case restoredRoots
    /// The app's own first screen: there was nothing the policy let it restore.
    case startedFresh = "fresh"
    /// The app's own first screen, or a deep link's: the app declined a restore it could have
    /// made (`reason` is the app's word for why; the start's cause is what it opened instead).
    case declined
  }

  /// What the launch showed.
  package var outcome: Outcome
  /// Why, in a word: for a fresh start the store's reason (`noSession`, `tooOld`, `ended`,
  /// `unsettledLaunches`, `undecodable`), for a restore of the roots `unsettledLaunch`, for a
  /// declined restore the app's own word; `nil` for a whole restore.
  package var reason: String?
  /// The routes the restore left out, in the order the restore met them (at most
  /// `LaunchRecord.maximumDroppedRoutes`; empty unless something was restored), each as the
  /// restore reported it, its error kept as the words the wire format stores (`field: message`
  /// as one message).
  package var dropped: [DroppedRoute]

  /// The most dropped routes one record lists: an update that cuts more stacks than this
  /// lists the first ones.
  package static let maximumDroppedRoutes = 100

  /// A record; text longer than the wire format takes is cut, empty text left out, and the
  /// dropped routes past `maximumDroppedRoutes` not listed, so that a launch is always recorded.
  package init(outcome: Outcome, reason: String? = nil, dropped: [DroppedRoute] = []) {
    self.outcome = outcome
    self.reason = reason.flatMap { reason in
      WireScalars.writableText(String(String.UnicodeScalarView(reason.unicodeScalars.filter { !Self.isControl($0) })))
    }
    self.dropped = dropped.prefix(Self.maximumDroppedRoutes).map { route in
      var route = route
      route.removedRouteCount = min(max(route.removedRouteCount, 1), TreeLimits.routes)
      route.screenName = WireScalars.writableText(route.screenName) ?? "?"
      route.error = WireFormatError(
        field: "", message: WireScalars.writableText(route.error.description) ?? "does not decode")
      return route
    }
  }

  /// Whether `scalar` is a control character, which a reason may not hold: stores keep the
  /// reason as a text column of its own, and PostgreSQL's text holds no NUL.
  static func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.generalCategory == .control }

  /// Whether a launch of `outcome` gives a reason in the app's own words (a declined restore's,
  /// which may say something of the user), not the store's.
  package static func reasonIsTheApps(_ outcome: Outcome) -> Bool { outcome == .declined }

  /// The record without the app's own words and without the decoder's messages, which may quote
  /// a stored screen's values: what an upload or a report that leaves payloads out keeps.
  package var withoutAppWords: LaunchRecord {
    var launch = self
    if Self.reasonIsTheApps(outcome) { launch.reason = nil }
    for index in launch.dropped.indices {
      launch.dropped[index].error = WireFormatError(field: "", message: "does not decode")
    }
    return launch
  }

  /// How many routes the restore left out in all (at most `maximumDroppedRoutes` times the
  /// wire format's routes in a state).
  package var droppedRouteCount: Int { dropped.reduce(0) { $0 + $1.removedRouteCount } }

  /// `restored, 4 routes dropped`, `fresh (tooOld)`, `declined (notificationOpened)`: what
  /// `navstore history` prints after the start's state.
  package var description: String {
    Self.describe(outcome, reason: reason, droppedRoutes: droppedRouteCount)
  }

  /// The words of `description` from what a session's row keeps of its launch.
  package static func describe(_ outcome: Outcome, reason: String?, droppedRoutes: Int) -> String {
    var words = outcome.rawValue
    if let reason { words += " (\(reason))" }
    if droppedRoutes > 0 { words += ", \(droppedRoutes) route\(droppedRoutes == 1 ? "" : "s") dropped" }
    return words
  }

  /// Whether the outcome restored something, and so must name the session in `restoredFrom`.
  package var restoredSomething: Bool { outcome == .restored || outcome == .restoredRoots }

  /// Why a `start` carrying this record and `restoredFrom` (or not) is malformed, if it is: a
  /// restore names its session, a fresh or declined start restored none, and only a restore
  /// drops routes.
  func problem(restoredFrom: SessionLink?) -> String? {
    if restoredSomething, restoredFrom == nil {
      return
        "a launch that \(outcome.rawValue == "restored" ? "restored" : "restored the roots") names the session in restoredFrom"
    }
    if !restoredSomething, restoredFrom != nil {
      return "a \(outcome.rawValue) launch restored nothing: leave restoredFrom out"
    }
    if !restoredSomething, !dropped.isEmpty { return "a \(outcome.rawValue) launch dropped nothing" }
    return nil
  }
}

enum LaunchRecordField: String, WireField {
  case outcome, reason, dropped
  static let canonicalOrder = sortedCanonically()
  static let keys = WireNames<Self>()
}

enum DroppedRouteField: String, WireField {
  case path, index, screen, routes, error
  static let canonicalOrder = sortedCanonically()
  static let keys = WireNames<Self>()
}

extension LaunchRecord: WireValue, Codable {
  static func read(from tree: JSONValue) throws(WireFailure) -> LaunchRecord {
    let object = try WireObjectReader<LaunchRecordField>(tree)
    var trees: [LaunchRecordField: JSONValue] = [:]
    let present = object.sort { field, value in trees[field] = value }
    try object.refuseUnknown(allowed: LaunchRecordField.allCases, present: present, in: "launch")
    let outcome = try object.required(trees[.outcome], .outcome) { value throws(WireFailure) in
      let text = try WireScalars.string(value)
      guard let outcome = Outcome(rawValue: text) else {
        throw WireFailure(
          "unknown outcome \"\(text)\" (expected one of: \(Outcome.allCases.map(\.rawValue).joined(separator: ", ")))")
      }
      return outcome
    }
    let reason = try object.optional(trees[.reason], .reason) { value throws(WireFailure) in
      let text = try WireScalars.string(value)
      try WireScalars.checkText(text, named: LaunchRecordField.reason.rawValue)
      guard !text.unicodeScalars.contains(where: isControl) else {
        throw WireFailure("reason must not hold a control character")
      }
      return text
    }
    let dropped = try object.optional(trees[.dropped], .dropped) { value throws(WireFailure) in
      let routes = try WireScalars.array(value, DroppedRoute.read(from:))
      guard !routes.isEmpty else { throw WireFailure("dropped must not be empty: leave it out") }
      guard routes.count <= maximumDroppedRoutes else {
        throw WireFailure("dropped lists at most \(maximumDroppedRoutes) routes")
      }
      return routes
    }
    var record = LaunchRecord(outcome: outcome)
    record.reason = reason
    record.dropped = dropped ?? []
    return record
  }

  func write(to writer: inout CanonicalWriter) throws(WireFailure) {
    try writer.object(LaunchRecordField.self) { writer, field throws(WireFailure) in
      switch field {
      case .outcome: writer.string(outcome.rawValue)
      case .reason:
        guard let reason else { return }
        try WireScalars.checkText(reason, named: field.rawValue)
        guard !reason.unicodeScalars.contains(where: Self.isControl) else {
          throw WireFailure("reason must not hold a control character")
        }
        writer.string(reason)
      case .dropped:
        guard !dropped.isEmpty else { return }
        guard dropped.count <= Self.maximumDroppedRoutes else {
          throw WireFailure("dropped lists at most \(Self.maximumDroppedRoutes) routes")
        }
        try writer.array(dropped) { writer, route throws(WireFailure) in try route.write(to: &writer) }
      }
    }
  }

  package init(from decoder: any Decoder) throws { self = try Self.decoded(from: decoder) }
  package func encode(to encoder: any Encoder) throws { try encodeWire(to: encoder) }
}

extension DroppedRoute {
  /// A dropped route as the wire format's `dropped` member names its parts; `error` is the
  /// decoder's words.
  package init(path: CoordinatorPath, index: Int, screen: String, routes: Int, error: String) {
    self.init(
      path: path, index: index, screenName: screen, removedRouteCount: routes,
      error: WireFormatError(field: "", message: error))
  }

  static func read(from tree: JSONValue) throws(WireFailure) -> Self {
    let object = try WireObjectReader<DroppedRouteField>(tree)
    var trees: [DroppedRouteField: JSONValue] = [:]
    let present = object.sort { field, value in trees[field] = value }
    try object.refuseUnknown(allowed: DroppedRouteField.allCases, present: present, in: "a dropped route")
    let text = { (field: DroppedRouteField) throws(WireFailure) -> String in
      try object.required(trees[field], field) { value throws(WireFailure) in
        let text = try WireScalars.string(value)
        try WireScalars.checkText(text, named: field.rawValue)
        return text
      }
    }
    return Self(
      path: try object.required(trees[.path], .path, CoordinatorPath.read(from:)),
      index: try object.required(trees[.index], .index, WireScalars.integer(atLeast: 0, named: "index")),
      screen: try text(.screen),
      routes: try object.required(trees[.routes], .routes) { value throws(WireFailure) in
        let routes = try WireScalars.integer(atLeast: 1, named: "routes")(value)
        // No restore drops more routes than a state holds; the bound keeps every sum exact.
        guard routes <= TreeLimits.routes else { throw WireFailure("routes must be at most \(TreeLimits.routes)") }
        return routes
      },
      error: try text(.error))
  }

  func write(to writer: inout CanonicalWriter) throws(WireFailure) {
    try writer.object(DroppedRouteField.self) { writer, field throws(WireFailure) in
      switch field {
      case .path: try path.write(to: &writer)
      case .index:
        try WireScalars.check(index, atLeast: 0, named: field.rawValue)
        try writer.integer(index)
      case .screen:
        try WireScalars.checkText(screenName, named: field.rawValue)
        writer.string(screenName)
      case .routes:
        try WireScalars.check(removedRouteCount, atLeast: 1, named: field.rawValue)
        guard removedRouteCount <= TreeLimits.routes else {
          throw WireFailure("routes must be at most \(TreeLimits.routes)")
        }
        try writer.integer(removedRouteCount)
      case .error:
        let words = error.description
        try WireScalars.checkText(words, named: field.rawValue)
        writer.string(words)
      }
    }
  }
}
