extension Coordinator {
  /// The path and the coordinator of the flow `anchor` finds in this state; throws `flowGone`
  /// when it finds none. `renames` are the host screens `updateScreen` changed (see
  /// `FlowAnchor.locate`).
  func located(_ anchor: FlowAnchor, renames: HostRenames) throws(NavigationModelError) -> (
    path: CoordinatorPath, coordinator: Coordinator
  ) {
    guard let found = anchor.locate(in: self, renames: renames) else { throw anchor.missing }
    return found
  }

  /// Applies one operation to the flow `anchor` finds in this state.
  mutating func apply(_ kind: NavigationOperation<AppScreen>.Kind, to anchor: FlowAnchor, renames: HostRenames)
    throws(NavigationModelError)
  {
    let path = try located(anchor, renames: renames).path
    do {
      try apply(NavigationOperation(kind, at: path))
    } catch {
      throw .rejected(error)
    }
  }

  /// The coordinator of the flow `anchor` finds in this state, or `nil` when it is gone.
  func coordinator(of anchor: FlowAnchor, renames: HostRenames) -> Coordinator? {
    anchor.locate(in: self, renames: renames)?.coordinator
  }
}
