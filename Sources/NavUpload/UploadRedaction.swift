import NavCore

/// What an event becomes before it leaves the device, under each `UploadPrivacy`.
///
/// Leaving something out changes what the event hashes to, so a redacted event goes without
/// its chain value and the collector chains it itself. Screens are reduced to their names and
/// nothing else: styles, children, indices and counts stay, so every operation is as legal on
/// the collector as on the device and the collector's states have the device's shape.
enum UploadRedaction {
  /// `event` as `privacy` lets it leave the device.
  static func apply(_ privacy: UploadPrivacy, to event: AnyEvent) -> AnyEvent {
    var event = event
    switch privacy {
    case .everything:
      return event
    case .withoutCauses:
      event.cause = nil
    case .screenNamesOnly:
      event.cause = nil
      event.operation = NavigationOperation(names(event.operation.kind), at: event.operation.path)
    }
    event.hash = nil
    return event
  }

  /// A screen by its name alone (a string is its own name in the wire format).
  static func name(_ screen: JSONValue) -> JSONValue { .string(ScreenName.of(screen)) }

  static func names(_ kind: AnyOperation.Kind) -> AnyOperation.Kind {
    switch kind {
    case .start(let state, let link, let context):
      return .start(names(state), restoredFrom: link, context: context.flatMap(withoutPersonalData))
    case .push(let screen, let child):
      return .push(name(screen), child: child.map(names))
    case .presentSheet(let screen, let withNavigation, let child):
      return .presentSheet(name(screen), withNavigation: withNavigation, child: child.map(names))
    case .presentCover(let screen, let withNavigation, let child):
      return .presentCover(name(screen), withNavigation: withNavigation, child: child.map(names))
    case .setRoutes(let routes):
      return .setRoutes(routes.map(names))
    case .updateScreen(let index, let screen):
      return .updateScreen(index: index, screen: name(screen))
    case .setTabs(let tabs, let selected):
      return .setTabs(tabs.map(names), selected: selected)
    case .goBack, .goBackTo, .goBackToRoot, .pop, .popTo, .popToRoot, .popToCurrentNavigationRoot, .dismiss,
      .dismissAll, .selectTab, .background, .foreground, .end:
      return kind
    }
  }

  static func names(_ coordinator: AnyCoordinator) -> AnyCoordinator {
    switch coordinator {
    case .stack(let routes): .stack(routes.map(names))
    case .tabs(let tabs, let selected): .tabs(tabs.map(names), selected: selected)
    }
  }

  static func names(_ route: Route<JSONValue>) -> Route<JSONValue> {
    Route(style: route.style, screen: name(route.screen), child: route.child.map(names))
  }

  /// The context without what names a person or holds the app's own data: the user id and the
  /// app's keys go; versions, OS, device, locale and time zone stay. `nil` when nothing is left.
  static func withoutPersonalData(_ context: SessionContext) -> SessionContext? {
    var context = context.withoutUserID
    context.app = [:]
    return context.isEmpty ? nil : context
  }
}
