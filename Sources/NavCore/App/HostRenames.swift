/// The host screens whose value `updateScreen` changed, so that a flow handle made before the
/// change still finds the flow the screen hosts: each identity a host had, to the newest one.
///
/// `.checkout(cartID: 8)` made `.checkout(cartID: 9)` is the same screen to the handles of its
/// flows, as an `Identifiable` screen whose `id` stays is. Only `updateScreen` says that a new
/// value is the same screen; a screen replaced any other way (`setRoutes`, `go(to:)`) is a new
/// screen, and the handles of the old one's flows are gone.
struct HostRenames {
  private var newest: [ScreenIdentity: ScreenIdentity] = [:]

  /// The identity `identity` has now, when a host that had it was renamed since.
  subscript(identity: ScreenIdentity) -> ScreenIdentity? { newest[identity] }

  /// Notes that the host known as `old` is now `new`; earlier names of `old` follow it.
  mutating func rename(_ old: ScreenIdentity, to new: ScreenIdentity) {
    guard old != new else { return }
    for (name, current) in newest where current == old { newest[name] = new }
    newest[old] = new
    newest[new] = nil
  }

  /// Forgets the renames whose host no longer hosts a flow anywhere in `state`, once there are
  /// more than a few: the table stays as small as the tree.
  mutating func prune<AppScreen>(keepingHostsOf state: Coordinator<AppScreen>) {
    guard newest.count > 32 else { return }
    var hosts = Set<ScreenIdentity>()
    Self.collectHosts(of: state, into: &hosts)
    newest = newest.filter { hosts.contains($0.value) }
  }

  private static func collectHosts<AppScreen>(
    of coordinator: Coordinator<AppScreen>, into hosts: inout Set<ScreenIdentity>
  ) {
    switch coordinator {
    case .stack(let routes):
      for route in routes {
        guard let child = route.child else { continue }
        hosts.insert(ScreenIdentity(route.screen))
        collectHosts(of: child, into: &hosts)
      }
      if let root = routes.first { hosts.insert(ScreenIdentity(root.screen)) }  // a tab's root names it
    case .tabs(let tabs, _):
      for tab in tabs { collectHosts(of: tab, into: &hosts) }
    }
  }
}
