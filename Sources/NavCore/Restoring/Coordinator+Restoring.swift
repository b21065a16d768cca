/// Decoding a stored (untyped) state into the app's own screen type, across app versions.
extension Coordinator where AppScreen == JSONValue {
  /// This state with every screen decoded as `Typed`. Under `.dropUndecodable` a screen that
  /// does not decode cuts its stack there (see `RestorePolicy`); under `.strict` it throws.
  /// The result is always well-formed.
  public func restoring<Typed: NavigationScreen>(
    as type: Typed.Type, policy: RestorePolicy = .dropUndecodable
  ) throws(RestoreError) -> RestoredState<Typed> {
    var restorer = ScreenRestorer<Typed>(policy: policy)
    guard let state = try restorer.restore(self, at: .top) else {
      // The top coordinator went: the first record is the one that took it (its root, or the
      // first tab's root when every tab went). A coordinator only goes after recording why.
      let cause =
        restorer.dropped.first
        ?? DroppedRoute(
          path: .top, index: 0, screenName: "?", removedRouteCount: routeCount,
          error: WireFormatError(field: "", message: "no screen decodes"))
      throw .nothingRestorable(cause)
    }
    return RestoredState(state: state, dropped: restorer.dropped)
  }
}

/// Walks a stored tree in order, decoding screens and cutting where they do not decode.
private struct ScreenRestorer<Typed: NavigationScreen> {
  let policy: RestorePolicy
  var dropped: [DroppedRoute] = []

  /// The coordinator decoded, or `nil` when its root (or every tab's root) did not decode.
  mutating func restore(_ stored: AnyCoordinator, at path: CoordinatorPath) throws(RestoreError) -> Coordinator<Typed>?
  {
    switch stored {
    case .stack(let routes):
      var kept: [Route<Typed>] = []
      kept.reserveCapacity(routes.count)
      for (index, route) in routes.enumerated() {
        let decoded: Result<Typed, WireFormatError>
        let unstorable = UnstorableScreen.found(in: route.screen)
        if let unstorable {
          // A screen the app could not store when it was recorded: never a screen, whatever the
          // app's decoder would make of the marker.
          decoded = .failure(
            WireFormatError(
              field: "", message: "\(unstorable.screen) could not be stored when it was recorded: \(unstorable.error)"))
        } else {
          do {
            decoded = .success(try WireFormat.decode(Typed.self, from: route.screen))
          } catch {
            decoded = .failure(Self.plain(error, decoding: route.screen))
          }
        }
        let screen: Typed
        switch decoded {
        case .success(let value):
          screen = value
        case .failure(let error):
          let removed = routes[index...].reduce(0) { $0 + $1.routeCount }
          let record = DroppedRoute(
            path: path, index: index,
            screenName: unstorable?.screen ?? ScreenName.of(route.screen),
            removedRouteCount: removed, error: error)
          if policy == .strict { throw .undecodableScreen(record) }
          dropped.append(record)
          return index == 0 ? nil : .stack(kept)
        }
        let child = try route.child.flatMap { child throws(RestoreError) in
          try restore(child, at: path.appending(.route(index)))
        }
        kept.append(Route(style: route.style, screen: screen, child: child))
      }
      return .stack(kept)
    case .tabs(let tabs, let selected):
      var kept: [Coordinator<Typed>] = []
      var keptSelection: Int?
      var lastKeptBeforeSelection: Int?
      for (index, tab) in tabs.enumerated() {
        guard let restored = try restore(tab, at: path.appending(.tab(index))) else { continue }
        if index == selected { keptSelection = kept.count }
        if index < selected { lastKeptBeforeSelection = kept.count }
        kept.append(restored)
      }
      guard !kept.isEmpty else { return nil }
      // The selected tab, where it survived; else the nearest one before it; else the first.
      return .tabs(kept, selected: keptSelection ?? lastKeptBeforeSelection ?? 0)
    }
  }
}

extension ScreenRestorer {
  /// What Swift's synthesized `Decodable` says of an enum case it does not know.
  static var unknownCaseMessage: String { "Invalid number of keys found, expected one." }

  /// `error` in plain words where Swift's own are not: a stored case the type no longer has
  /// (removed, or renamed without keeping its stored name) is named, with the type and the
  /// way to keep a renamed case's screens.
  static func plain(_ error: WireFormatError, decoding screen: JSONValue) -> WireFormatError {
    guard error.field.isEmpty, error.message == unknownCaseMessage,
      case .object(let members) = screen, members.count == 1, let name = members.keys.first
    else { return error }
    let printable = ScreenName.printable(name)
    return WireFormatError(
      field: "",
      message: "\(Typed.self) has no case named '\(printable)'; if it was renamed, keep its stored name in "
        + "the type's CodingKeys (case newName = \"\(printable)\")")
  }
}

extension Route where AppScreen == JSONValue {
  /// This route and every route of the flows it hosts.
  var routeCount: Int { 1 + (child?.routeCount ?? 0) }
}

extension Coordinator where AppScreen == JSONValue {
  /// Every route in the tree.
  var routeCount: Int {
    switch self {
    case .stack(let routes): routes.reduce(0) { $0 + $1.routeCount }
    case .tabs(let tabs, _): tabs.reduce(0) { $0 + $1.routeCount }
    }
  }
}
