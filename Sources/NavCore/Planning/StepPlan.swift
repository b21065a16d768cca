/// A restore or deep link split into the steps a host can apply, with the time of each.
///
/// The steps are full states, not diffs: a host sets each one as its navigation state in turn.
/// The last step is the target exactly.
public struct StepPlan<Screen: NavigationScreen>: Hashable, Sendable {
  /// The states to apply, in order; the first differs from the start in contents only.
  public var steps: [Coordinator<Screen>]
  /// The host the steps were planned for.
  public var host: HostProfile

  /// Creates a plan from its steps.
  public init(steps: [Coordinator<Screen>], host: HostProfile) {
    self.steps = steps
    self.host = host
  }

  /// The delay FlowStacks and TCACoordinators wait between steps, in every version.
  public static var defaultDelayMilliseconds: Int { 650 }

  /// Whether the host can apply the target at once: steps 0 and 1 are applied in the same
  /// turn, so fewer than three steps need no delay.
  public var canUpdateAtOnce: Bool { steps.count < 3 }

  /// When step `index` is applied, in milliseconds from the start: steps 0 and 1 at once, step
  /// k at (k - 1) × delay.
  /// Saturates at `Int.max` rather than overflowing.
  public static func time(ofStep index: Int, delayMilliseconds: Int) -> Int {
    guard index >= 2 else { return 0 }
    let (product, overflow) = (index - 1).multipliedReportingOverflow(by: max(0, delayMilliseconds))
    return overflow ? Int.max : product
  }

  /// The steps with their times.
  public func scheduled(delayMilliseconds: Int = defaultDelayMilliseconds) -> [ScheduledStep<Screen>] {
    steps.enumerated().map { index, state in
      ScheduledStep(step: index, atMs: Self.time(ofStep: index, delayMilliseconds: delayMilliseconds), state: state)
    }
  }

  /// How long the whole plan takes to play.
  public func duration(delayMilliseconds: Int = defaultDelayMilliseconds) -> Int {
    Self.time(ofStep: steps.count - 1, delayMilliseconds: delayMilliseconds)
  }
}

/// One step of a plan at its time: a line of `navstore plan --json` and `navstore replay --json`
/// (`{"step": 0, "atMs": 0, "state": {...}}`).
public struct ScheduledStep<Screen: NavigationScreen>: Hashable, Sendable {
  /// The step's position in the plan, from 0.
  public var step: Int
  /// When it is applied, in milliseconds from the start.
  public var atMs: Int
  /// The state to apply.
  public var state: Coordinator<Screen>

  /// Creates a scheduled step.
  public init(step: Int, atMs: Int, state: Coordinator<Screen>) {
    self.step = step
    self.atMs = atMs
    self.state = state
  }
}

extension ScheduledStep: Codable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: AnyCodingKey.self)
    try container.rejectUnknownFields(allowed: ["step", "atMs", "state"], in: "a plan step")
    step = try container.requiredInteger("step", atLeast: 0)
    atMs = try container.requiredInteger("atMs", atLeast: 0)
    state = try container.required(Coordinator<Screen>.self, "state")
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: AnyCodingKey.self)
    try container.encode(step, forKey: AnyCodingKey("step"))
    try container.encode(atMs, forKey: AnyCodingKey("atMs"))
    try container.encode(state, forKey: AnyCodingKey("state"))
  }
}
