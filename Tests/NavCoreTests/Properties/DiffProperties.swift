import CustomDump
import NavCore
import NavTestSupport
import PropertyBased
import Testing

/// `apply(diff(a, b), a) == b`, for independent random trees and for trees reached from one
/// another by random operations (which share structure, the common case for a recorder).
@Suite struct DiffProperties {
  func expectDiffReaches(
    _ old: AnyCoordinator, _ new: AnyCoordinator, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let operations = try AnyCoordinator.diff(from: old, to: new)
    var state = old
    for operation in operations {
      try state.apply(operation)
    }
    expectSame(state, new)
    if old == new { #expect(operations.isEmpty, sourceLocation: sourceLocation) }
  }

  @Test func diffConnectsIndependentStacks() async {
    await checkProperty(count: 400, input: TreeGen.stack(depth: 3), TreeGen.stack(depth: 3)) { old, new in
      try expectDiffReaches(old, new)
    }
  }

  @Test func diffConnectsIndependentTabs() async {
    let tabs = Generator<AnyCoordinator, Shrink.None<AnyCoordinator>> { rng in RandomTrees.tabs(depth: 3, using: &rng) }
    await checkProperty(count: 300, input: tabs, tabs) { old, new in
      try expectDiffReaches(old, new)
    }
  }

  @Test func diffConnectsStatesAlongARandomSession() async {
    await checkProperty(count: 300, input: TreeGen.session(depth: 3, length: 1...25)) { initial, operations in
      var state = initial
      for operation in operations {
        guard let next = try? state.applying(operation) else { continue }
        try expectDiffReaches(state, next)
        state = next
      }
      try expectDiffReaches(initial, state)
      try expectDiffReaches(state, initial)
    }
  }

  @Test func aSingleNaturalOperationIsRecoveredAsItself() async {
    // For the operations diff prefers, the diff of (s, apply(op, s)) is op itself.
    await checkProperty(count: 300, input: TreeGen.session(depth: 2, length: 1...25)) { initial, operations in
      var state = initial
      for operation in operations {
        guard let next = try? state.applying(operation), next != state else { continue }
        let derived = try AnyCoordinator.diff(from: state, to: next)
        switch operation.kind {
        case .push, .presentSheet, .presentCover, .updateScreen, .selectTab:
          #expect(derived == [operation], "\(operation.name)")
        default:
          #expect(derived.count >= 1)
        }
        state = next
      }
    }
  }

  @Test func theTopCoordinatorCannotChangeKind() {
    #expect(throws: DiffError.topCoordinatorKindChanged(from: .stack, to: .tabs)) {
      try AnyCoordinator.diff(from: .stack(stack("R")), to: .tabs([.stack(stack("R"))], selected: 0))
    }
  }
}
