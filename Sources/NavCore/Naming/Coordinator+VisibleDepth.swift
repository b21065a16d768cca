/// How deep a user is: the `depth` of `navstore sessions` and the sessions export, and what
/// the store keeps per session so that listing sessions never replays one.
extension Coordinator {
  /// Routes on the visible path: the routes of the stack on screen, plus those of the child
  /// shown by its top route, following selected tabs. Inlinable: the store computes it for
  /// every event it appends, and a generic call would look up type metadata each time.
  @inlinable
  package var visibleDepth: Int {
    switch self {
    case .stack(let routes): routes.count + (routes.last?.child?.visibleDepth ?? 0)
    case .tabs(let tabs, let selected): tabs.indices.contains(selected) ? tabs[selected].visibleDepth : 0
    }
  }
}
