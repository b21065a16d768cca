@_spi(Internals) import NavCore
import NavTestSupport
import PropertyBased
import Testing

/// `background`, `foreground` and `end`: written as bare operations, an end's reason held to
/// the short-text rule both ways, no path, no effect on the state, and the phase rules checked
/// against a model over random sequences.
struct LifecycleWireTests {
  @Test func theEventsAreWrittenBareAndReadBack() throws {
    #expect(try canonical(AnyOperation.background) == #"{"op":"background"}"#)
    #expect(try canonical(AnyOperation.foreground) == #"{"op":"foreground"}"#)
    #expect(try canonical(AnyOperation.end()) == #"{"op":"end"}"#)
    #expect(try canonical(AnyOperation.end(reason: "signedOut")) == #"{"op":"end","reason":"signedOut"}"#)
    for operation in [AnyOperation.background, .foreground, .end(), .end(reason: "é 🧭")] {
      #expect(try decoded(AnyOperation.self, try canonical(operation)) == operation)
      #expect(operation.isLifecycle)
    }
    #expect(!AnyOperation.pop().isLifecycle && !AnyOperation.start(.stack([.root("home")])).isLifecycle)
  }

  @Test(arguments: [
    (#"{"op":"background","path":[]}"#, #"unknown field "path" in a background operation"#),
    (#"{"op":"foreground","reason":"x"}"#, #"unknown field "reason" in a foreground operation"#),
    (#"{"op":"end","reason":""}"#, "reason must be 1 to 256 characters, not 0"),
    (#"{"op":"end","reason":7}"#, "expected a string, found a number"),
    (#"{"op":"end","reason":"\#(String(repeating: "x", count: 257))"}"#, "reason must be 1 to 256 characters, not 257"),
  ])
  func aBadLifecycleEventIsRefused(text: String, message: String) {
    #expect {
      try decoded(AnyOperation.self, text)
    } throws: { error in
      "\(error)".contains(message)
    }
  }

  @Test func whatReadingRefusesIsNotWritten() {
    #expect(throws: (any Error).self) { try canonical(AnyOperation.end(reason: "")) }
    #expect(throws: (any Error).self) { try canonical(AnyOperation.end(reason: String(repeating: "x", count: 257))) }
    var withPath = AnyOperation.background
    withPath.path = [.route(0)]
    #expect(throws: (any Error).self) { try canonical(withPath) }
    let state = AnyCoordinator.stack([.root("home", withNavigation: true, child: .stack([.root("inner")]))])
    #expect(throws: NavigationError.self) { try state.applying(withPath) }
  }

  @Test func aLifecycleEventLeavesTheStateAsItIs() throws {
    let state = AnyCoordinator.stack([.root("home", withNavigation: true), .push("detail")])
    for operation in [AnyOperation.background, .foreground, .end(reason: "x")] {
      #expect(try state.applying(operation) == state)
      #expect(throws: NavigationError.self) { try operation.apply(to: nil) }
    }
  }

  /// The recorder's and the model's way in: the app's word becomes the operation, an empty
  /// reason left out and a long one cut, so that what the app says can always be written.
  @Test func anAppsReasonIsMadeWritable() throws {
    let long: AnyOperation = LifecycleEvent.end(reason: String(repeating: "é", count: 300)).operation()
    #expect(long == .end(reason: String(repeating: "é", count: 256)))
    #expect(LifecycleEvent.end(reason: "").operation() == AnyOperation.end())
    #expect(try decoded(AnyOperation.self, try canonical(long)) == long)
    #expect(LifecycleEvent.background.phase == .background && LifecycleEvent.end().phase == .ended)
  }

  /// Random sequences of operations: `SessionPhase.after` accepts exactly what the rules say
  /// (alternation, anything but after `end`), and a refusal names the operation.
  @Test func thePhaseRulesMatchAModel() async {
    let pool: [AnyOperation] = [.background, .foreground, .end(), .end(reason: "r"), .pop(), .push("x")]
    let sequences = Generator<[AnyOperation], Shrink.None<[AnyOperation]>> { rng in
      (0..<Int.random(in: 0...20, using: &rng)).compactMap { _ in pool.randomElement(using: &rng) }
    }
    await checkProperty(count: 300, input: sequences) { operations in
      var phase = SessionPhase.foreground
      var ended = false
      var inBackground = false
      for operation in operations {
        let allowed: Bool =
          switch operation.name {
          case _ where ended: false
          case "background": !inBackground
          case "foreground": inBackground
          default: true
          }
        do throws(NavigationError) {
          phase = try phase.after(operation)
          #expect(allowed, "\(operation.name) accepted")
          if operation.name == "background" { inBackground = true }
          if operation.name == "foreground" { inBackground = false }
          if operation.name == "end" { ended = true }
        } catch {
          #expect(!allowed, "\(operation.name) refused: \(error)")
          #expect(error.operation == operation.name)
        }
        #expect(phase == (ended ? .ended : inBackground ? .background : .foreground))
      }
    }
  }
}
