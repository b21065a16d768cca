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

      --walk walks the user's path instead, event by event (up to --at): each line is the time \
      since the session began and the event as 'history' prints it (seq, origin, what happened, \
      the screen it led to, the app's cause), with the updates the change takes on the host \
      when it needs more than one; at the recorded pace (--speed scales it; a gap longer than 5 \
      seconds is cut to 5), on Enter with --step, or at once with --no-wait. --json prints an \
      object per event: seq, at, offsetMs, origin, op, cause, screen, updates.

      Examples:
        navstore replay s-1
        navstore replay s-1 --at 12 --host navigation-stack --speed 4
        navstore replay s-1 --no-wait --json
        navstore replay s-1 --walk --speed 2
        navstore replay s-1 --walk --step
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

  @Flag(help: "Print one JSON line per step: {\"step\", \"atMs\", \"state\"} (with --walk, one per event).")
  var json = false

  @Flag(help: "Walk the user's path event by event, with each event's time, origin, cause and screen.")
  var walk = false

  @Flag(help: "With --walk, print the next event each time Enter is pressed.")
  var step = false

  @OptionGroup var timeZone: TimeZoneOption

  func validate() throws {
    if let at, at < 1 { throw ValidationError("--at must be 1 or more, not \(at)") }
    guard speed.isFinite, speed >= 0.001, speed <= 1000 else {
      throw ValidationError("--speed must be from 0.001 to 1000, not \(speed)")
    }
    if noWait && speed != 1 { throw ValidationError("--speed and --no-wait cannot be used together") }
    if step && !walk { throw ValidationError("--step goes with --walk") }
    if step && (noWait || speed != 1) {
      throw ValidationError("--step waits for Enter: leave out --speed and --no-wait")
    }
  }

  func run() async throws {
    if walk { return try await walkPath() }
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

  /// `--walk`: the session's events, read once, then walked.
  private func walkPath() async throws {
    let (session, at, given, json, time) = (session, at, planning.host, json, timeZone.formatter())
    let pace: WalkPlayer.Pace = step ? .stepped : noWait ? .none : .recorded(speed: speed)
    let (player, stops) = try await store.withSessions { sessions in
      // The profile given, else the one the session's app recorded.
      let recorded: HostProfile? =
        if given == nil { try await sessions.summary(of: session).context?.host } else { nil }
      let host = given ?? recorded ?? .default
      let player = WalkPlayer(host: host, pace: pace, json: json, time: time)
      var stops: [WalkPlayer.Stop] = []
      var before: AnyCoordinator?
      var first: Timestamp?
      try await sessions.replayHistory(of: session, from: 1, to: at) { event, state in
        stops.append(
          try player.stop(event, state: state, before: before, first: first ?? event.at, previous: stops.last?.event.at)
        )
        first = first ?? event.at
        before = state
      }
      return (player, stops)
    }
    try player.walk(session, stops)
  }
}
