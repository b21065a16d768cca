import NavCore

/// FlowStacks' step calculation, written in our own words from the pseudo-code in
/// `docs/reference/flowstacks.md` §3, on root-excluded arrays. The property tests compare the planner
/// with it for single stacks.
enum FlowStacksStepOracle {
  static func steps(
    from start: [AnyRoute], to end: [AnyRoute], multipleDismissals: Bool, pushesJoinPreviousStep: Bool
  ) -> [[AnyRoute]] {
    let shared = min(start.count, end.count)
    let divergence = (0..<shared).first(where: { start[$0].style != end[$0].style }) ?? shared
    let firstLayer = (divergence..<start.count).first(where: { start[$0].isPresented }) ?? start.count
    var steps = [Array(end[..<divergence]) + start[divergence...]]
    func last() -> [AnyRoute] { steps[steps.count - 1] }
    if multipleDismissals {
      if last().count > firstLayer { steps.append(Array(last()[..<divergence])) }
    } else {
      while last().count > firstLayer {
        var state = last()
        var removed = state.popLast()
        while let route = removed, !route.isPresented, state.count > firstLayer { removed = state.popLast() }
        steps.append(state)
      }
    }
    if last().count > divergence {
      var state = last()
      while state.last?.style == .push, state.count > divergence { state.removeLast() }
      steps.append(state)
    }
    while last().count < end.count {
      let state = last() + [end[last().count]]
      if pushesJoinPreviousStep, state.last?.style == .push, steps.count > 1 {
        steps[steps.count - 1] = state
      } else {
        steps.append(state)
      }
    }
    return steps
  }

  static func steps(from start: [AnyRoute], to end: [AnyRoute], host: HostProfile) -> [[AnyRoute]] {
    steps(
      from: start, to: end, multipleDismissals: host == .navigationStack17,
      pushesJoinPreviousStep: host != .navigationView)
  }
}
