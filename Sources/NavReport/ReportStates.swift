import NavCore

/// The states a report shows, each part kept once and shared between the states that have it,
/// so that a page grows with what its events changed, not with the size of every state.
///
/// A state is a tree of three kinds of nodes: a **route** (its style, its screen's name and
/// payload as the page shows them, and the flow it hosts), a **cell** (one route of a stack
/// and the cell of the routes under it: a stack is its top cell, so pushing a screen adds one
/// cell and popping returns to one that exists) and **tabs** (the tabs' coordinators and the
/// one selected). Nodes are kept once by what they show. A state is referred to by its top
/// coordinator: a cell's index, or a tabs node's as `-(index + 1)`.
///
/// Each state is compared with the one before it, from the top, so a route that did not change
/// is not looked at again below its first level; the nodes of what changed are added. The
/// table stops taking states once it holds `byteLimit` bytes of nodes (a session that changes
/// a deep stack's root on every event would otherwise make it grow with depth times events):
/// the states after that are not in the page, which says so.
package struct ReportStates: Sendable {
  /// One route as the page shows it.
  package struct RouteNode: Hashable, Sendable {
    /// `root`, `push`, `sheet` or `cover`, with "with navigation" when it has it.
    package var style: String
    /// Whether it is a sheet or a cover.
    package var isPresented: Bool
    /// Its screen's name, at most `ReportText.nameLimit` characters.
    package var screen: String
    /// Its screen's JSON when that says more than the name, shortened; `nil` when payloads are
    /// left out or there is nothing more.
    package var payload: String?
    /// The flow it hosts: a coordinator reference.
    package var child: Int?
  }

  /// The routes, each once.
  package private(set) var routes: [RouteNode] = []
  /// The cells: the cell under (or `nil` for a stack's root) and the route.
  package private(set) var cells: [(under: Int?, route: Int)] = []
  /// The tabs nodes: their coordinators and the selected one.
  package private(set) var tabs: [(tabs: [Int], selected: Int)] = []
  /// Whether a state was refused because the table was full.
  package private(set) var isFull = false

  /// The bytes of nodes the table takes at most.
  package static let byteLimit = 3 * 1024 * 1024

  private let omitsPayloads: Bool
  private var routeIndex: [RouteNode: Int] = [:]
  private var cellIndex: [CellKey: Int] = [:]
  private var tabsIndex: [TabsKey: Int] = [:]
  private var bytes = 0
  /// The last state added, with the references of its parts, to compare the next one with.
  private var previous: Built?

  init(omitsPayloads: Bool) { self.omitsPayloads = omitsPayloads }

  /// The reference of `state`'s top coordinator, adding the nodes it needs; `nil` once the
  /// table is full.
  mutating func add(_ state: AnyCoordinator) -> Int? {
    guard !isFull else { return nil }
    let built = build(state, previous: previous)
    guard bytes <= Self.byteLimit else {
      isFull = true
      return nil
    }
    previous = built
    return built.reference
  }

  // MARK: Building

  private struct CellKey: Hashable {
    var under: Int?
    var route: Int
  }

  private struct TabsKey: Hashable {
    var tabs: [Int]
    var selected: Int
  }

  /// A coordinator as it was added: the value, its reference, and each part's.
  private indirect enum Built {
    case stack(routes: [AnyRoute], cells: [Int], built: [BuiltRoute])
    case tabs(coordinators: [AnyCoordinator], selected: Int, built: [Built], reference: Int)

    var reference: Int {
      switch self {
      case .stack(_, let cells, _): cells.last ?? 0
      case .tabs(_, _, _, let reference): reference
      }
    }
  }

  private struct BuiltRoute {
    var route: Int
    var child: Built?
  }

  private mutating func build(_ coordinator: AnyCoordinator, previous: Built?) -> Built {
    switch coordinator {
    case .stack(let routes):
      var oldRoutes: [AnyRoute] = []
      var oldCells: [Int] = []
      var oldBuilt: [BuiltRoute] = []
      if case .stack(let routes, let cells, let built)? = previous {
        (oldRoutes, oldCells, oldBuilt) = (routes, cells, built)
      }
      // The routes the stack still has from before, from its root up, are the same cells.
      let common = min(routes.count, oldRoutes.count)
      var kept = 0
      while kept < common, oldRoutes[kept] == routes[kept] { kept += 1 }
      var cells = Array(oldCells[..<kept])
      var built = Array(oldBuilt[..<kept])
      cells.reserveCapacity(routes.count)
      built.reserveCapacity(routes.count)
      // Above the first route that changed, one that did not is the same node on a new cell.
      for index in kept..<routes.count {
        let route = routes[index]
        let part: BuiltRoute
        if index < oldRoutes.count, oldRoutes[index] == route {
          part = oldBuilt[index]
        } else {
          let child = route.child.map { build($0, previous: index < oldBuilt.count ? oldBuilt[index].child : nil) }
          let node = RouteNode(
            style: route.style.description, isPresented: route.isPresented,
            screen: ReportText.shortened(route.screenName, to: ReportText.nameLimit),
            payload: omitsPayloads ? nil : StateTreeHTML.payloadText(route.screen), child: child?.reference)
          part = BuiltRoute(route: intern(node), child: child)
        }
        cells.append(intern(CellKey(under: cells.last, route: part.route)))
        built.append(part)
      }
      return .stack(routes: routes, cells: cells, built: built)
    case .tabs(let coordinators, let selected):
      var old: (coordinators: [AnyCoordinator], built: [Built])?
      if case .tabs(let oldCoordinators, _, let oldBuilt, _)? = previous { old = (oldCoordinators, oldBuilt) }
      let built = coordinators.enumerated().map { index, tab -> Built in
        if let old, index < old.coordinators.count {
          return old.coordinators[index] == tab ? old.built[index] : build(tab, previous: old.built[index])
        }
        return build(tab, previous: nil)
      }
      let reference = -(intern(TabsKey(tabs: built.map(\.reference), selected: selected)) + 1)
      return .tabs(coordinators: coordinators, selected: selected, built: built, reference: reference)
    }
  }

  private mutating func intern(_ node: RouteNode) -> Int {
    if let known = routeIndex[node] { return known }
    routes.append(node)
    routeIndex[node] = routes.count - 1
    bytes += 40 + node.style.utf8.count + node.screen.utf8.count + (node.payload?.utf8.count ?? 0)
    return routes.count - 1
  }

  private mutating func intern(_ key: CellKey) -> Int {
    if let known = cellIndex[key] { return known }
    cells.append((key.under, key.route))
    cellIndex[key] = cells.count - 1
    bytes += 16
    return cells.count - 1
  }

  private mutating func intern(_ key: TabsKey) -> Int {
    if let known = tabsIndex[key] { return known }
    tabs.append((key.tabs, key.selected))
    tabsIndex[key] = tabs.count - 1
    bytes += 16 + 8 * key.tabs.count
    return tabs.count - 1
  }

  // MARK: The page's copy

  /// The table as the page's script reads it (`Markup.scriptData` makes it inert inside the
  /// page's `<script>` element):
  /// `{"routes": [[style, presented, screen, payload, child]...], "cells": [[under, route]...],
  /// "tabs": [[selected, [coordinator...]]...]}` (`null` for no payload, child or cell under).
  package var json: String {
    let routes: [JSONValue] = routes.map { node in
      .array([
        .string(node.style), .bool(node.isPresented), .string(node.screen), node.payload.map(JSONValue.string) ?? .null,
        node.child.map { .number(Double($0)) } ?? .null,
      ])
    }
    let cells: [JSONValue] = cells.map {
      .array([$0.under.map { .number(Double($0)) } ?? .null, .number(Double($0.route))])
    }
    let tabs: [JSONValue] = tabs.map {
      .array([.number(Double($0.selected)), .array($0.tabs.map { .number(Double($0)) })])
    }
    return JSONValue.object(["routes": .array(routes), "cells": .array(cells), "tabs": .array(tabs)]).canonicalString
  }
}

/// Text from the store shortened for a page: a screen's name, a cause, an operation's words.
/// A line of the wire format may hold 256 KiB; the page shows the beginning of it.
enum ReportText {
  static let nameLimit = 120
  static let causeLimit = 200

  /// `text`, or its first `limit - 1` characters (one at least) and `…`.
  static func shortened(_ text: String, to limit: Int) -> String {
    text.count <= limit ? text : String(text.prefix(max(1, limit - 1))) + "…"
  }

}
