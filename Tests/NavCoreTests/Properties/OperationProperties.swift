import CustomDump
@_spi(Internals) import NavCore
import NavTestSupport
import PropertyBased
import Testing

/// Properties of `apply` over random trees (depth up to 3, with tabs and children) and random
/// operation sequences, about half of which are rejected.
@Suite struct OperationProperties {
  @Test func aRejectedOperationLeavesTheStateExactlyAsItWas() async {
    await checkProperty(count: 300, input: TreeGen.session(depth: 3, length: 1...25)) { initial, operations in
      var state = initial
      for operation in operations {
        let before = state
        do throws(NavigationError) {
          try state.apply(operation)  // the in-place path, which edits storage directly
        } catch {
          #expect(state == before, "\(error)")
          #expect(!error.description.isEmpty)
        }
      }
    }
  }

  @Test func acceptedOperationsKeepTheTreeWellFormed() async {
    await checkProperty(count: 300, input: TreeGen.session(depth: 3, length: 1...25)) { initial, operations in
      var state = initial
      #expect(state.structureError() == nil)
      for operation in operations {
        guard let next = try? state.applying(operation) else { continue }
        #expect(next.structureError() == nil, "after \(operation.name)")
        #expect(next.kind == state.kind, "the top coordinator changed kind")
        state = next
      }
    }
  }

  @Test func inPlaceAndPureApplicationAgree() async {
    await checkProperty(count: 200, input: TreeGen.session(depth: 3, length: 1...20)) { initial, operations in
      var inPlace = initial
      var pure = initial
      for operation in operations {
        let pureResult = try? pure.applying(operation)
        let accepted = (try? inPlace.apply(operation)) != nil
        #expect(accepted == (pureResult != nil))
        if let pureResult { pure = pureResult }
        #expect(inPlace == pure)
      }
    }
  }

  /// The store's in-place path: same result as the pure one, and a refusal leaves the
  /// session's state as it was (nil before the first event included).
  @Test func sessionApplicationAgreesWithPureApplication() async {
    await checkProperty(count: 200, input: TreeGen.session(depth: 3, length: 1...20)) { initial, operations in
      var running: AnyCoordinator? = nil
      #expect(throws: NavigationError.self) { try AnyOperation.pop().apply(toSession: &running) }
      #expect(running == nil)
      try AnyOperation.start(initial).apply(toSession: &running)
      var pure = initial
      for operation in operations {
        // The state before, as bytes: holding the value itself would share its storage and
        // make every edit a copy, so the in-place path would never run.
        let before = try running.map { try WireFormat.canonicalBytes($0) }
        let pureResult = try? pure.applying(operation)
        do throws(NavigationError) {
          let returned = try operation.apply(toSession: &running)
          #expect(pureResult == returned)
          #expect(running == returned)
        } catch {
          #expect(pureResult == nil)
          #expect(try running.map { try WireFormat.canonicalBytes($0) } == before)
        }
        if let pureResult { pure = pureResult }
      }
    }
  }

  @Test func statesRoundTripThroughTheWireFormat() async {
    await checkProperty(count: 300, input: TreeGen.session(depth: 3, length: 0...15)) { initial, operations in
      var state = initial
      for operation in operations {
        state = (try? state.applying(operation)) ?? state
        guard Self.isWritable(operation) else {
          #expect(throws: WireFormatError.self, "what would not read back is not written") { try canonical(operation) }
          continue
        }
        let operationText = try canonical(operation)
        expectSame(try decoded(AnyOperation.self, operationText), operation)
      }
      let text = try canonical(state)
      let back = try decoded(AnyCoordinator.self, text)
      expectSame(back, state)
      #expect(try canonical(back) == text)
    }
  }

  /// Whether the wire format reads what an operation says, and so writes it: a count of at least
  /// 1, an index from 0, well-formed routes and tabs, no path on `start` (the generator makes
  /// counts of 0 and -1, and malformed stacks, on purpose).
  static func isWritable(_ operation: AnyOperation) -> Bool {
    switch operation.kind {
    case .start: operation.path.isTop
    case .goBack(let count), .pop(let count), .dismiss(let count): count >= 1
    case .goBackTo(let index), .popTo(let index), .selectTab(let index), .updateScreen(let index, _): index >= 0
    case .setRoutes(let routes): AnyCoordinator.stack(routes).structureError() == nil
    case .setTabs(let tabs, let selected): AnyCoordinator.tabs(tabs, selected: selected).structureError() == nil
    default: true
    }
  }

  @Test func eventsRoundTripThroughTheWireFormat() async {
    await checkProperty(
      count: 200, input: TreeGen.session(depth: 2, length: 1...5), Gen.int(in: 1...1_000_000),
      Gen.int(in: -10_000_000...10_000_000)
    ) { session, seq, offset in
      for (index, operation) in session.1.enumerated() where Self.isWritable(operation) {
        let event = AnyEvent(
          session: try SessionID("s-\(seq)"), seq: seq + index,
          at: Timestamp(millisecondsSince1970: 1_795_000_000_000 + Int64(offset) * 1000 + Int64(index)),
          origin: index.isMultiple(of: 2) ? .app : .user, operation: operation,
          cause: index.isMultiple(of: 3) ? ["routeAction": [.number(Double(index)), "tapped"]] : nil)
        let text = try canonical(event)
        expectSame(try decoded(AnyEvent.self, text), event)
      }
    }
  }
}
