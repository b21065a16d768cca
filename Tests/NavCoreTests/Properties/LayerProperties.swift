import NavCore
import NavTestSupport
import PropertyBased
import Testing

/// Properties of the host's view of a stack (`StackLayer`, `ShownLayer`) over random stacks:
/// the layers rebuild the routes, and every gesture written back is FlowStacks' change.
@MainActor
@Suite struct LayerProperties {
  @Test func theLayersRebuildTheRoutesExactly() async {
    await checkProperty(count: 400, input: TreeGen.stack(depth: 2)) { state in
      let routes = state.routes ?? []
      let layers = StackLayer.layers(of: routes)
      #expect(layers.flatMap { [$0.base] + $0.pushes } == routes)
      #expect(layers.first?.start == (routes.isEmpty ? nil : 0))
      for layer in layers {
        #expect(layer.start == 0 || layer.base.style.isPresented, "a layer begins at the root or a presentation")
        #expect(!layer.pushes.contains { $0.style.isPresented }, "a presented route begins a layer")
        #expect(layer.path == Array(layer.start + 1..<layer.end))
      }
    }
  }

  /// A back swipe to any depth of any layer is FlowStacks' truncation, `goBackTo(index:)`, and
  /// is recorded as the user's; a path that keeps every push changes nothing.
  @Test func aPathWrittenBackIsTheTruncationFlowStacksMakes() async {
    await checkProperty(count: 300, input: TreeGen.stack(depth: 2), Gen.int(in: 0...10_000)) { state, seed in
      let (model, log) = makeUntypedModel(state)
      let layers = StackLayer.layers(of: state.routes ?? [])
      let layer = layers[seed % layers.count]
      let kept = (seed / 7) % (layer.pushes.count + 1)
      model.stack.shownLayers[seed % layers.count].path = Array(layer.path.prefix(kept))
      if kept == layer.pushes.count {
        #expect(model.state == state)
        #expect(log.all.count == 1, "only the launch state is recorded")
      } else {
        let expected = try state.applying(.goBackTo(index: layer.start + kept))
        #expect(model.state == expected)
        #expect(log.all.last?.origin == .user)
        #expect(model.shown == model.state)
      }
    }
  }

  /// A sheet or cover dragged down is FlowStacks' `dismiss(count:)` of that layer, whichever
  /// binding the host writes (`showsSheet`/`showsCover` below it, `isPresented` on it).
  @Test func aLayerDismissedByTheUserIsTheDismissFlowStacksMakes() async {
    await checkProperty(count: 300, input: TreeGen.stack(depth: 2), Gen.int(in: 0...10_000)) { state, seed in
      let layers = StackLayer.layers(of: state.routes ?? [])
      guard layers.count > 1 else { return }
      let number = 1 + seed % (layers.count - 1)
      let expected = try state.applying(.dismiss(layers.count - number))
      for write in 0..<3 {
        let (model, log) = makeUntypedModel(state)
        let below = model.stack.shownLayers[number - 1]
        #expect(below.showsSheet == layers[number].base.style.isSheet)
        #expect(below.showsCover == !layers[number].base.style.isSheet)
        switch write {
        case 0: below.showsSheet = false
        case 1: below.showsCover = false
        default: model.stack.shownLayers[number].isPresented = false
        }
        #expect(model.state == (write == 2 || (write == 0) == layers[number].base.style.isSheet ? expected : state))
        #expect(log.all.count == (model.state == state ? 1 : 2))
      }
    }
  }

  /// Every route's `child` is a handle to the flow it hosts as shown, at any depth.
  @Test func aShownRoutesChildIsTheFlowItHosts() async {
    await checkProperty(count: 200, input: TreeGen.stack(depth: 3)) { state in
      let (model, _) = makeUntypedModel(state)
      checkChildren(of: model.stack, in: state)
    }
  }

  private func checkChildren(of flow: StackFlow<JSONValue>, in coordinator: AnyCoordinator) {
    let routes = coordinator.routes ?? []
    #expect(flow.shownRoutes == routes)
    let shown = flow.shownLayers.flatMap { layer in [layer.base] + layer.path.map { layer.route(at: $0) } }
    #expect(shown.map { $0?.route } == routes)
    for case let route? in shown {
      switch (route.child, route.route.child) {
      case (.stack(let child)?, let hosted?): checkChildren(of: child, in: hosted)
      case (.tabs(let tabs)?, .tabs(let hosted, let selected)?):
        #expect(tabs.selection == selected)
        #expect(tabs.shownTabs.count == hosted.count)
        for (tab, coordinator) in zip(tabs.shownTabs, hosted) {
          if case .stack(let stack) = tab { checkChildren(of: stack, in: coordinator) }
        }
      case (nil, nil): break
      default: Issue.record("route \(route.index) hosts \(String(describing: route.route.child?.kind))")
      }
    }
  }
}

extension RouteStyle {
  fileprivate var isSheet: Bool {
    if case .sheet = self { return true }
    return false
  }
}
