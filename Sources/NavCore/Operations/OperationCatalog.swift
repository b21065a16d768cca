/// Every operation of the log, described once: its name, the fields it carries (read in this
/// order, so errors come in this order), how it is built from them and taken apart into them,
/// and how it reads in words. Reading, canonical writing, the export's columns and the
/// summaries all come from here; what an operation does to a state is in `Apply.swift`.
///
/// Adding an operation: a case in `NavigationOperation.Kind`, then one entry in each switch
/// below (the compiler lists the ones missing), then its effect in `Apply.swift`.

/// The operations' names, as the wire format spells them (the spec's order, which messages
/// follow).
enum OperationName: String, CaseIterable, Sendable {
  case start, push, presentSheet, presentCover, goBack, goBackTo, goBackToRoot, pop, popTo, popToRoot
  case popToCurrentNavigationRoot, dismiss, dismissAll, setRoutes, updateScreen, selectTab, setTabs
  case background, foreground, end

  private static let names = WireNames<Self>()

  /// The operation `text` names, if any.
  static func named(_ text: String) -> OperationName? { names.named(text) }

  /// The fields the operation takes besides `op` and `path`, in the order they are read.
  var fields: [OperationField] {
    switch self {
    case .start: [.state, .restoredFrom, .context, .launch]
    case .push: [.screen, .child]
    case .presentSheet, .presentCover: [.screen, .withNavigation, .child]
    case .goBack, .pop, .dismiss: [.count]
    case .goBackTo, .popTo, .selectTab: [.index]
    case .goBackToRoot, .popToRoot, .popToCurrentNavigationRoot, .dismissAll: []
    case .setRoutes: [.routes]
    case .updateScreen: [.index, .screen]
    case .setTabs: [.tabs, .selected]
    case .background, .foreground: []
    case .end: [.reason]
    }
  }

  /// Whether the operation is addressed to a coordinator by `path`: all but `start`, which
  /// sets the whole state, and the lifecycle events, which are about the app, not a place in it.
  var takesPath: Bool { self != .start && !isLifecycle }

  /// Whether the operation says what happened to the app (`background`, `foreground`, `end`)
  /// rather than to its navigation: it leaves the state as it is.
  var isLifecycle: Bool {
    switch self {
    case .background, .foreground, .end: true
    default: false
    }
  }

  /// How the operation moves the user through the app, as the screen-views export says how they
  /// arrived at a screen.
  var movement: NavigationMovement {
    switch self {
    case .start: .start
    case .push: .push
    case .presentSheet, .presentCover: .present
    case .goBack, .goBackTo, .goBackToRoot, .pop, .popTo, .popToRoot, .popToCurrentNavigationRoot: .back
    case .dismiss, .dismissAll: .dismiss
    case .selectTab, .setTabs: .tab
    case .setRoutes, .updateScreen: .replace
    case .background, .foreground, .end: .lifecycle
    }
  }

  /// A field refused with a reason of its own, before unknown fields are looked at.
  var refusedField: (field: OperationField, reason: String)? {
    self == .push
      ? (
        .withNavigation, "withNavigation is not allowed on push: a pushed screen lives in the navigation stack below it"
      )
      : nil
  }
}

extension NavigationOperation.Kind {
  /// The operation's name.
  var operationName: OperationName {
    switch self {
    case .start: .start
    case .push: .push
    case .presentSheet: .presentSheet
    case .presentCover: .presentCover
    case .goBack: .goBack
    case .goBackTo: .goBackTo
    case .goBackToRoot: .goBackToRoot
    case .pop: .pop
    case .popTo: .popTo
    case .popToRoot: .popToRoot
    case .popToCurrentNavigationRoot: .popToCurrentNavigationRoot
    case .dismiss: .dismiss
    case .dismissAll: .dismissAll
    case .setRoutes: .setRoutes
    case .updateScreen: .updateScreen
    case .selectTab: .selectTab
    case .setTabs: .setTabs
    case .background: .background
    case .foreground: .foreground
    case .end: .end
    }
  }

  /// Builds the operation from its fields, reading them in the order `fields` lists.
  init(_ name: OperationName, reading fields: OperationFieldReader) throws(WireFailure) {
    switch name {
    case .start:
      let state: Coordinator<AppScreen> = try fields.readState()
      let restoredFrom = try fields.readRestoredFrom()
      self = .start(
        state, restoredFrom: restoredFrom, context: try fields.readContext(),
        launch: try fields.readLaunch(restoredFrom: restoredFrom))
    case .push: self = .push(try fields.readScreen(), child: try fields.readChild())
    case .presentSheet:
      self = .presentSheet(
        try fields.readScreen(), withNavigation: try fields.readWithNavigation(), child: try fields.readChild())
    case .presentCover:
      self = .presentCover(
        try fields.readScreen(), withNavigation: try fields.readWithNavigation(), child: try fields.readChild())
    case .goBack: self = .goBack(count: try fields.readCount())
    case .goBackTo: self = .goBackTo(index: try fields.readIndex())
    case .goBackToRoot: self = .goBackToRoot
    case .pop: self = .pop(count: try fields.readCount())
    case .popTo: self = .popTo(index: try fields.readIndex())
    case .popToRoot: self = .popToRoot
    case .popToCurrentNavigationRoot: self = .popToCurrentNavigationRoot
    case .dismiss: self = .dismiss(count: try fields.readCount())
    case .dismissAll: self = .dismissAll
    case .setRoutes: self = .setRoutes(try fields.readRoutes())
    case .updateScreen: self = .updateScreen(index: try fields.readIndex(), screen: try fields.readScreen())
    case .selectTab: self = .selectTab(index: try fields.readIndex())
    case .setTabs:
      let (tabs, selected): ([Coordinator<AppScreen>], Int) = try fields.readTabs()
      self = .setTabs(tabs, selected: selected)
    case .background: self = .background
    case .foreground: self = .foreground
    case .end: self = .end(reason: try fields.readReason())
    }
  }

  /// The operation taken apart into its fields.
  var fieldValues: OperationFieldValues<AppScreen> {
    switch self {
    case .start(let state, let restoredFrom, let context, let launch):
      OperationFieldValues(state: state, restoredFrom: restoredFrom, context: context, launch: launch)
    case .push(let screen, let child): OperationFieldValues(screen: screen, child: child)
    case .presentSheet(let screen, let withNavigation, let child),
      .presentCover(let screen, let withNavigation, let child):
      OperationFieldValues(screen: screen, withNavigation: withNavigation, child: child)
    case .goBack(let count), .pop(let count), .dismiss(let count): OperationFieldValues(count: count)
    case .goBackTo(let index), .popTo(let index), .selectTab(let index): OperationFieldValues(index: index)
    case .goBackToRoot, .popToRoot, .popToCurrentNavigationRoot, .dismissAll: OperationFieldValues()
    case .setRoutes(let routes): OperationFieldValues(routes: routes)
    case .updateScreen(let index, let screen): OperationFieldValues(screen: screen, index: index)
    case .setTabs(let tabs, let selected): OperationFieldValues(tabs: tabs, selected: selected)
    case .background, .foreground: OperationFieldValues()
    case .end(let reason): OperationFieldValues(reason: reason)
    }
  }

  /// What the operation does, in a few words, without its path.
  var summary: String {
    switch self {
    case .start(let state, let restoredFrom, _, let launch):
      "start with \(state.shapeSummary)" + (restoredFrom.map { ", restored from \($0)" } ?? "")
        + (launch.map { "; launch: \($0)" } ?? "")
    case .push(let screen, let child):
      "push \(ScreenName.of(screen))\(Self.hosting(child))"
    case .presentSheet(let screen, let withNavigation, let child):
      "present sheet \(ScreenName.of(screen))\(withNavigation ? " with navigation" : "")\(Self.hosting(child))"
    case .presentCover(let screen, let withNavigation, let child):
      "present cover \(ScreenName.of(screen))\(withNavigation ? " with navigation" : "")\(Self.hosting(child))"
    case .goBack(let count): count == 1 ? "go back" : "go back \(count) routes"
    case .goBackTo(let index): "go back to route \(index)"
    case .goBackToRoot: "go back to the root"
    case .pop(let count): count == 1 ? "pop" : "pop \(count) screens"
    case .popTo(let index): "pop to route \(index)"
    case .popToRoot: "pop to the root"
    case .popToCurrentNavigationRoot: "pop to the current navigation root"
    case .dismiss(let count): count == 1 ? "dismiss" : "dismiss \(count) layers"
    case .dismissAll: "dismiss all"
    case .setRoutes(let routes): "set routes [" + routes.map(\.screenName).joined(separator: ", ") + "]"
    case .updateScreen(let index, let screen): "update route \(index) to \(ScreenName.of(screen))"
    case .selectTab(let index): "select tab \(index)"
    case .setTabs(let tabs, let selected):
      "set \(tabs.count) tab\(tabs.count == 1 ? "" : "s"), tab \(selected) selected"
    case .background: "the app went to the background"
    case .foreground: "the app came back to the foreground"
    case .end(let reason): "the session ended" + (reason.map { " (\($0))" } ?? "")
    }
  }

  private static func hosting(_ child: Coordinator<AppScreen>?) -> String {
    guard let child else { return "" }
    return " hosting \(child.shapeSummary)"
  }
}
