import NavCore

/// The first place two navigation trees differ, walking from the top: the deepest coordinator
/// whose own shape or routes differ, with a line that says how.
struct TreeDifference<Screen: NavigationScreen> {
  /// The coordinator's place in the tree.
  var path: CoordinatorPath
  /// The recorded coordinator there.
  var recorded: Coordinator<Screen>
  /// The replayed coordinator there.
  var replayed: Coordinator<Screen>
  /// How they differ, in a line.
  var detail: String

  /// The first difference between `recorded` and `replayed`, or `nil` when they are equal.
  static func first(recorded: Coordinator<Screen>, replayed: Coordinator<Screen>, at path: CoordinatorPath = .top)
    -> TreeDifference?
  {
    guard recorded != replayed else { return nil }
    func here(_ detail: String) -> TreeDifference {
      TreeDifference(path: path, recorded: recorded, replayed: replayed, detail: "at \(path): \(detail)")
    }
    switch (recorded, replayed) {
    case (.stack(let ours), .stack(let theirs)):
      for (index, (route, other)) in zip(ours, theirs).enumerated() where route != other {
        guard route.style == other.style, route.screen == other.screen else {
          return here("route \(index) was recorded as \(line(route)), replayed as \(line(other))")
        }
        switch (route.child, other.child) {
        case (let child?, let otherChild?):
          return first(recorded: child, replayed: otherChild, at: path.appending(.route(index)))
        case (.some, nil):
          return here("route \(index) hosted a flow in the recording, none in the replay")
        default:
          return here("route \(index) hosted no flow in the recording, one in the replay")
        }
      }
      let extra = ours.count > theirs.count ? ours[theirs.count] : theirs[ours.count]
      return here(
        "\(ours.count) route(s) recorded, \(theirs.count) replayed; the first not in both is \(ours.count > theirs.count ? "recorded" : "replayed") "
          + line(extra))
    case (.tabs(let ours, let selected), .tabs(let theirs, let otherSelected)):
      guard ours.count == theirs.count else { return here("\(ours.count) tabs recorded, \(theirs.count) replayed") }
      if let index = ours.indices.first(where: { ours[$0] != theirs[$0] }) {
        return first(recorded: ours[index], replayed: theirs[index], at: path.appending(.tab(index)))
      }
      return here("tab \(selected) selected in the recording, tab \(otherSelected) in the replay")
    case (.stack, .tabs):
      return here("a stack in the recording, tabs in the replay")
    case (.tabs, .stack):
      return here("tabs in the recording, a stack in the replay")
    }
  }

  /// `push numberDetail(number: 7)`: the route's style and its whole screen value.
  private static func line(_ route: Route<Screen>) -> String {
    "\(route.styleText) \(route.screen)"
  }
}
