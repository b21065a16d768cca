import ArgumentParser
import NavCore
import NavPersistence

/// `navstore replay`: plays a stored session back through the legal, delayed steps a host needs.
struct ReplayCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "replay",
    abstract: "Play a session back, step by step, as a SwiftUI host would restore it.",
    discussion: """
      Rehydrates the session (after its last event, or --at SEQ) and plays the step plan from \
      its launch state (every stack cut back to its root, tabs kept) to that state, waiting the \
      delays between steps. Each step prints what appeared (+), went away (-) or changed (~). \
      --json prints the spec's step lines instead, at their times, for a UI test or simulator \
      to drive. Ctrl-C stops cleanly.

      Examples:
        navstore replay s-1
        navstore replay s-1 --at 12 --host navigation-stack --speed 4
        navstore replay s-1 --no-wait --json
      """)

  @OptionGroup var store: StoreOption

  @Argument(help: "The session id.", transform: sessionArgument)
  var session: SessionID

  @Option(parsing: .unconditional, help: "Replay the state after this event (default: the last).")
  var at: Int?

  @OptionGroup var planning: PlanningOptions

  @Option(parsing: .unconditional, help: "Play faster (2 = twice as fast) or slower (0.5).")
  var speed: Double = 1

  @Flag(help: "Print every step at once, without waiting.")
  var noWait = false

  @Flag(help: "Print one JSON line per step: {\"step\", \"atMs\", \"state\"}.")
  var json = false

  func validate() throws {
    if let at, at < 1 { throw ValidationError("--at must be 1 or more, not \(at)") }
    guard speed.isFinite, speed >= 0.001, speed <= 1000 else {
      throw ValidationError("--speed must be from 0.001 to 1000, not \(speed)")
    }
    if noWait && speed != 1 { throw ValidationError("--speed and --no-wait cannot be used together") }
  }

  func run() async throws {
    let (session, at, given) = (session, at, planning.host)
    let (current, host) = try await store.withSessions { sessions in
      let current = try await sessions.state(of: session, at: at)
      // The profile given, else the one the session's app recorded.
      let host: HostProfile? =
        if let given { given } else { try await sessions.summary(of: session).context?.host }
      return (current, host)
    }
    let (state, seq) = (current.state, current.seq)
    try ReplayPlayer(
      host: host ?? .default, delayMilliseconds: planning.delayMilliseconds, speed: noWait ? nil : speed, json: json
    )
    .play(session: session, seq: seq, state: state)
  }
}
