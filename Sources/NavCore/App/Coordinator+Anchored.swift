extension Coordinator {
  /// The path of the flow `anchor` finds in this state; throws `flowGone` when it finds none.
  func path(of anchor: FlowAnchor) throws(NavigationModelError) -> CoordinatorPath {
    guard let path = anchor.resolve(in: self) else { throw .flowGone(kind: anchor.kind, path: anchor.origin) }
    return path
  }

  /// Applies one operation to the flow `anchor` finds in this state.
  mutating func apply(_ kind: NavigationOperation<Screen>.Kind, to anchor: FlowAnchor) throws(NavigationModelError) {
    let path = try path(of: anchor)
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
