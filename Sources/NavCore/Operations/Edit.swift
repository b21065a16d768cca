/// The effect of an accepted operation on the coordinator it targets.
///
/// Applying is split in two: deciding (read-only, may reject) and performing (cannot fail). So a
/// rejection provably happens before anything is touched, and performing can mutate storage in
/// place without copying a large stack.
enum Edit<AppScreen: NavigationScreen> {
  case unchanged
  case truncate(keeping: Int)
  case append(Route<AppScreen>)
  case replaceRoutes([Route<AppScreen>])
  case updateScreen(index: Int, screen: AppScreen)
  case select(Int)
  case replaceTabs([Coordinator<AppScreen>], selected: Int)
}

extension Coordinator {
  /// Performs an edit that `decide` produced for this very coordinator.
  mutating func perform(_ edit: Edit<AppScreen>) {
    switch edit {
    case .unchanged:
      break
    case .truncate(let keeping):
      mutateRoutes { routes in routes.removeSubrange(keeping...) }
    case .append(let route):
      mutateRoutes { routes in routes.append(route) }
    case .replaceRoutes(let routes):
      self = .stack(routes)
    case .updateScreen(let index, let screen):
      mutateRoutes { routes in routes[index].screen = screen }
    case .select(let index):
      if case .tabs(let tabs, _) = self { self = .tabs(tabs, selected: index) }
    case .replaceTabs(let tabs, let selected):
      self = .tabs(tabs, selected: selected)
    }
  }

  /// Mutates the routes of a stack in place: the enum's reference to the array is dropped first,
  /// so the array is uniquely referenced and is not copied.
  private mutating func mutateRoutes(_ body: (inout [Route<AppScreen>]) -> Void) {
    guard case .stack(var routes) = self else { return }
    self = .stack([])
    body(&routes)
    self = .stack(routes)
  }

  /// Runs `body` on the coordinator at `path`, in place. The path must have been resolved.
  mutating func modify(at path: ArraySlice<PathStep>, _ body: (inout Coordinator) -> Void) {
    guard let step = path.first else {
      body(&self)
      return
    }
    switch (self, step) {
    case (.stack(var routes), .route(let index)):
      self = .stack([])
      if var child = routes[index].child {
        routes[index].child = nil
        child.modify(at: path.dropFirst(), body)
        routes[index].child = child
      }
      self = .stack(routes)
    case (.tabs(var tabs, let selected), .tab(let index)):
      self = .tabs([], selected: selected)
      tabs[index].modify(at: path.dropFirst(), body)
      self = .tabs(tabs, selected: selected)
    default:
      break
    }
  }
}
