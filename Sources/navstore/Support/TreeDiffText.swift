import NavCore

/// What changed between two navigation trees, as a person reads it: routes that appeared (`+`),
/// went away (`-`) or changed screen in place (`~`), and tab selections that moved.
enum TreeDiffText {
  /// A place in the tree: the steps to a route or to a tabs coordinator.
  private enum Step: Hashable, Comparable, CustomStringConvertible {
    case route(Int)
    case tab(Int)
    case tabs

    var description: String {
      switch self {
      case .route(let index): "route \(index)"
      case .tab(let index): "tab \(index)"
      case .tabs: "tabs"
      }
    }
  }

  private struct Entry: Equatable {
    var label: String
    var screen: String
  }

  static func lines(from old: AnyCoordinator, to new: AnyCoordinator) -> [String] {
    var before: [[Step]: Entry] = [:]
    var after: [[Step]: Entry] = [:]
    flatten(old, at: [], into: &before)
    flatten(new, at: [], into: &after)
    var changes: [([Step], String)] = []
    for (place, entry) in before where after[place]?.label != entry.label {
      changes.append((place, "- \(entry.label) \(entry.screen)\(context(place))"))
    }
    for (place, entry) in after {
      guard let previous = before[place], previous.label == entry.label else {
        changes.append((place, "+ \(entry.label) \(entry.screen)\(context(place))"))
        continue
      }
      if previous.screen != entry.screen {
        changes.append((place, "~ \(entry.label) \(previous.screen) → \(entry.screen)\(context(place))"))
      }
    }
    return changes.sorted { $0.0.lexicographicallyPrecedes($1.0) }.map(\.1)
  }

  /// " in [route 0, tab 1]" for a place inside a child, nothing at the top: the path as
  /// `history` and `plan` write it.
  private static func context(_ place: [Step]) -> String {
    place.count > 1 ? " in [" + place.dropLast().map(\.description).joined(separator: ", ") + "]" : ""
  }

  private static func flatten(_ coordinator: AnyCoordinator, at place: [Step], into entries: inout [[Step]: Entry]) {
    switch coordinator {
    case .stack(let routes):
      for (index, route) in routes.enumerated() {
        // Styles as `show` prints them (`sheet, navigation`).
        entries[place + [.route(index)]] = Entry(label: route.styleText, screen: ScreenName.compact(route.screen))
        if let child = route.child { flatten(child, at: place + [.route(index)], into: &entries) }
      }
    case .tabs(let tabs, let selected):
      entries[place + [.tabs]] = Entry(label: "tabs", screen: "tab \(selected) selected")
      for (index, tab) in tabs.enumerated() {
        flatten(tab, at: place + [.tab(index)], into: &entries)
      }
    }
  }
}
