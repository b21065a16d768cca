/// A restore or deep link split into the steps a host can apply, with the time of each.
///
/// The steps are full states, not diffs: a host sets each one as its navigation state in turn.
/// The last step is the target exactly.
public struct StepPlan<AppScreen: NavigationScreen>: Hashable, Sendable {
  /// The states to apply, in order; the first differs from the start in contents only.
  public var steps: [Coordinator<AppScreen>]
  /// The host the steps were planned for.
  package var host: HostProfile

  /// Creates a plan from its steps.
  package init(steps: [Coordinator<AppScreen>], host: HostProfile) {
    self.steps = steps
    self.host = host
  }

  /// The delay FlowStacks and TCACoordinators wait between steps, in every version.
  public static var defaultDelayMilliseconds: Int { 650 }

  /// Whether the host can apply the target at once: steps 0 and 1 are applied in the same
  /// turn, so fewer than three steps need no delay.
  package var canUpdateAtOnce: Bool { steps.count < 3 }

  /// When step `index` is applied, in milliseconds from the start: steps 0 and 1 at once, step
  /// k at (k - 1) × delay.
  /// Saturates at `Int.max` rather than overflowing.
  package static func time(ofStep index: Int, delayMilliseconds: Int) -> Int {
    guard index >= 2 else { return 0 }
    let (product, overflow) = (index - 1).multipliedReportingOverflow(by: max(0, delayMilliseconds))
    return overflow ? Int.max : product
  }

  /// The steps with their times.
  public func scheduled(delayMilliseconds: Int = defaultDelayMilliseconds) -> [ScheduledStep<AppScreen>] {
    steps.enumerated().map { index, state in
      ScheduledStep(step: index, atMs: Self.time(ofStep: index, delayMilliseconds: delayMilliseconds), state: state)
    }
  }

  /// How long the whole plan takes to play.
  package func duration(delayMilliseconds: Int = defaultDelayMilliseconds) -> Int {
    Self.time(ofStep: steps.count - 1, delayMilliseconds: delayMilliseconds)
  }
}

/// One step of a plan at its time: a line of `navstore plan --json` and `navstore replay --json`
/// (`{"step": 0, "atMs": 0, "state": {...}}`).
public struct ScheduledStep<AppScreen: NavigationScreen>: Hashable, Sendable {
  /// The step's position in the plan, from 0.
  package var step: Int
  /// When it is applied, in milliseconds from the start.
  public var atMs: Int
  /// The state to apply.
  public var state: Coordinator<AppScreen>

  /// Creates a scheduled step.
  package init(step: Int, atMs: Int, state: Coordinator<AppScreen>) {
    self.step = step
    self.atMs = atMs
    self.state = state
  }
}

enum ScheduledStepField: String, WireField {
  case step, atMs, state
  static let canonicalOrder = sortedCanonically()
  static let keys = WireNames<Self>()
}

extension ScheduledStep: WireValue, Codable {
  static func read(from tree: JSONValue) throws(WireFailure) -> ScheduledStep {
    let object = try WireObjectReader<ScheduledStepField>(tree)
    var stepTree: JSONValue?
    var atTree: JSONValue?
    var stateTree: JSONValue?
    let present = object.sort { field, value in
      switch field {
      case .step: stepTree = value
      case .atMs: atTree = value
      case .state: stateTree = value
      }
    }
    try object.refuseUnknown(allowed: ScheduledStepField.allCases, present: present, in: "a plan step")
    return ScheduledStep(
      step: try object.required(stepTree, .step, WireScalars.integer(atLeast: 0, named: "step")),
      atMs: try object.required(atTree, .atMs, WireScalars.integer(atLeast: 0, named: "atMs")),
      state: try object.required(stateTree, .state, Coordinator<AppScreen>.read(from:)))
  }

  func write(to writer: inout CanonicalWriter) throws(WireFailure) {
    try writer.object(ScheduledStepField.self) { writer, field throws(WireFailure) in
      switch field {
      case .step: try writer.integer(step)
      case .atMs: try writer.integer(atMs)
      case .state: try state.write(to: &writer)
      }
    }
  }

  public init(from decoder: any Decoder) throws { self = try Self.decoded(from: decoder) }
  public func encode(to encoder: any Encoder) throws { try encodeWire(to: encoder) }
}
