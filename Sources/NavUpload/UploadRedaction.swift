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
      event.operation = NavigationOperation(screensByName(in: event.operation.kind), at: event.operation.path)
    }
    event.hash = nil
    return event
  }

  /// A screen by its name alone (a string is its own name in the wire format).
  static func nameOnly(_ screen: JSONValue) -> JSONValue { .string(ScreenName.of(screen)) }

  /// The operation with every screen it carries by name, without the context's personal data
  /// and without an end's reason (the app's own words).
  static func screensByName(in kind: AnyOperation.Kind) -> AnyOperation.Kind {
    switch kind {
    case .start(let state, let link, let context, let launch):
      return .start(
        screensByName(in: state), restoredFrom: link, context: context.flatMap(withoutPersonalData),
        launch: launch.map(\.withoutAppWords))
    case .push(let screen, let child):
      return .push(nameOnly(screen), child: child.map(screensByName(in:)))
    case .presentSheet(let screen, let withNavigation, let child):
      return .presentSheet(nameOnly(screen), withNavigation: withNavigation, child: child.map(screensByName(in:)))
    case .presentCover(let screen, let withNavigation, let child):
      return .presentCover(nameOnly(screen), withNavigation: withNavigation, child: child.map(screensByName(in:)))
    case .setRoutes(let routes):
      return .setRoutes(routes.map(screensByName(in:)))
    case .updateScreen(let index, let screen):
      return .updateScreen(index: index, screen: nameOnly(screen))
    case .setTabs(let tabs, let selected):
      return .setTabs(tabs.map(screensByName(in:)), selected: selected)
    case .end:
      return .end(reason: nil)
    case .goBack, .goBackTo, .goBackToRoot, .pop, .popTo, .popToRoot, .popToCurrentNavigationRoot, .dismiss,
      .dismissAll, .selectTab, .background, .foreground:
      return kind
    }
  }

  /// The coordinator with every screen in it, nested ones too, by name.
  static func screensByName(in coordinator: AnyCoordinator) -> AnyCoordinator {
    switch coordinator {
    case .stack(let routes): .stack(routes.map(screensByName(in:)))
    case .tabs(let tabs, let selected): .tabs(tabs.map(screensByName(in:)), selected: selected)
    }
  }

  /// The route with its screen, and those of its child, by name; style and shape kept.
  static func screensByName(in route: AnyRoute) -> AnyRoute {
    Route(style: route.style, screen: nameOnly(route.screen), child: route.child.map(screensByName(in:)))
  }

  /// The context without what names a person or holds the app's own data: the user id and the
  /// app's keys go; versions, OS, device, locale and time zone stay. `nil` when nothing is left.
  static func withoutPersonalData(_ context: SessionContext) -> SessionContext? {
    var context = context.withoutUserID
    context.app = [:]
    return context.isEmpty ? nil : context
  }
}
