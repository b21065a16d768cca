/// One layer of a stack flow as the host shows it, read live from the model: the base route, the
/// navigation path pushed on it, and the layer presented over it, with setters that take the
/// user's gestures back to the model.
///
/// A SwiftUI host binds a `NavigationStack`'s path to ``path`` and its `.sheet` and
/// `.fullScreenCover` to ``showsSheet`` and ``showsCover``, and shows ``above`` in them: one
/// short recursive view shows any stack, with sheets and covers that have their own navigation.
/// What the host writes back is the user's change, recorded with `origin: .user`, and it is the
/// change FlowStacks makes for the same gesture (a truncation of the routes). Every read goes to
/// the model, so a layer value kept by a view stays current; once the layer is gone it reads as
/// empty and its setters do nothing.
@MainActor
public struct ShownLayer<AppScreen: NavigationScreen> {
  /// The stack flow the layer belongs to.
  public let flow: StackFlow<AppScreen>
  /// The layer's position: 0 for the base layer, 1 for the first sheet or cover, and so on.
  public let number: Int

  /// The layer's split of the shown routes now, or `nil` once it is gone.
  package var layer: StackLayer<AppScreen>? {
    let layers = StackLayer.layers(of: flow.shownRoutes)
    return layers.indices.contains(number) ? layers[number] : nil
  }

  /// The layer's first route (the stack's root, or the presented sheet or cover), or `nil` once
  /// the layer is gone.
  public var base: ShownRoute<AppScreen>? { layer.flatMap { route(at: $0.start) } }

  /// Whether the layer shows a navigation view, so that its pushes are a navigation path.
  public var withNavigation: Bool { layer?.withNavigation ?? false }

  /// The indices of the routes pushed on the layer: what its navigation view's path binds to,
  /// with ``route(at:)`` as the destination. Writing a shorter path is the user going back (a
  /// swipe, the back button): the routes are cut after the path's last entry, the layers above
  /// included. Entries the layer did not give (a destination the host pushed itself) are not
  /// taken: push through the flow instead.
  public var path: [Int] {
    get { layer?.path ?? [] }
    nonmutating set {
      guard let layer else { return }
      let kept = zip(layer.path, newValue).prefix(while: { $0 == $1 }).count
      guard kept < layer.pushes.count else { return }
      flow.shownRoutes = layer.keepingPushes(kept, of: flow.shownRoutes)
    }
  }

  /// The route at `index` in the stack, as shown, or `nil` when there is none.
  public func route(at index: Int) -> ShownRoute<AppScreen>? {
    let routes = flow.shownRoutes
    guard routes.indices.contains(index) else { return nil }
    return ShownRoute(index: index, route: routes[index], flow: flow)
  }

  /// The layer presented over this one, or `nil` when nothing is.
  public var above: ShownLayer? {
    StackLayer.layers(of: flow.shownRoutes).count > number + 1 ? ShownLayer(flow: flow, number: number + 1) : nil
  }

  /// Whether the layer is shown. Writing `false` is the user dismissing it (a sheet dragged
  /// down): the layer and everything above it go. The base layer cannot be dismissed; writing
  /// `true` does nothing (present through the flow).
  public var isPresented: Bool {
    get { layer != nil }
    nonmutating set {
      guard !newValue, let layer, layer.start > 0 else { return }
      flow.shownRoutes = layer.dismissing(from: flow.shownRoutes)
    }
  }

  /// Whether a sheet is presented over this layer: what `.sheet(isPresented:)` binds to, with
  /// ``above`` as its content. Writing `false` dismisses it.
  public var showsSheet: Bool {
    get { presents(sheet: true) }
    nonmutating set { if !newValue, presents(sheet: true) { above?.isPresented = false } }
  }

  /// Whether a full-screen cover is presented over this layer: what `.fullScreenCover` binds
  /// to, with ``above`` as its content. Writing `false` dismisses it.
  public var showsCover: Bool {
    get { presents(sheet: false) }
    nonmutating set { if !newValue, presents(sheet: false) { above?.isPresented = false } }
  }

  private func presents(sheet: Bool) -> Bool {
    guard let style = above?.layer?.base.style else { return false }
    switch style {
    case .sheet: return sheet
    case .cover: return !sheet
    case .root, .push: return false
    }
  }
}
