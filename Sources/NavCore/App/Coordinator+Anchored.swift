extension Coordinator {
  /// The path and the coordinator of the flow `anchor` finds in this state; throws `flowGone`
  /// when it finds none.
  func located(_ anchor: FlowAnchor) throws(NavigationModelError) -> (path: CoordinatorPath, coordinator: Coordinator) {
    guard let found = anchor.locate(in: self) else { throw .flowGone(kind: anchor.kind, path: anchor.origin) }
    return found
  }

  /// Applies one operation to the flow `anchor` finds in this state.
  mutating func apply(_ kind: NavigationOperation<Screen>.Kind, to anchor: FlowAnchor) throws(NavigationModelError) {
    let path = try located(anchor).path
    do {
      try apply(NavigationOperation(kind, at: path))
    } catch {
      throw .rejected(error)
    }
  }

  /// The coordinator of the flow `anchor` finds in this state, or `nil` when it is gone.
  func coordinator(of anchor: FlowAnchor) -> Coordinator? {
    anchor.locate(in: self)?.coordinator
  }
}
