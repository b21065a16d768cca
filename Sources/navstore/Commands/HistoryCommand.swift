import ArgumentParser
import NavCore
import NavFleet
@_spi(Internals) import NavPersistence

/// `navstore history`: a session's events, readable or as wire-format JSON Lines.
struct HistoryCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "history",
    abstract:
      "Print a session's events: time, seq, origin, what happened, the screen it led to and the app's cause.",
    discussion: """
      --json prints the events as wire-format JSON Lines with their hashes: the events export's \
      format, which 'navstore import' reads back.

      Each line ends with the event's cause, the app's action, in short form ("because \
      numberTapped(3)"), when it has one; the start shows the session's context in brackets \
      (app version, system, device, locale, time zone, user id) and what the launch did \
      (restored, restoredRoots, fresh or declined, and why), then, a line each, every route the \
      launch's restore left out: where it was, its screen, how many routes went with it and why \
      its screen no longer decodes. Times are as the device recorded them; an event earlier \
      than the one before it is marked "(clock went back)".

      Examples:
        navstore history s-1
        navstore history s-1 --from 10 --to 20 --json
      """)

  @OptionGroup var store: StoreOption

  @Argument(help: "The session id.", transform: sessionArgument)
  var session: SessionID

  @Option(parsing: .unconditional, help: "The first seq to print.")
  var from: Int = 1

  @Option(parsing: .unconditional, help: "The last seq to print (default: the last).")
  var to: Int?

  @Flag(help: "Print wire-format JSON Lines with hashes.")
  var json = false

  @OptionGroup var timeZone: TimeZoneOption

  func validate() throws {
    guard from >= 1 else { throw ValidationError("--from must be 1 or more, not \(from)") }
    if let to, to < from { throw ValidationError("--to (\(to)) must not be before --from (\(from))") }
  }

  func run() async throws {
    // The event before the first one printed is read too, to tell whether the clock went back.
    var previous: Timestamp?
    let time = timeZone.formatter()
    let printLine = { (event: AnyEvent, state: AnyCoordinator) throws in
      defer { previous = event.at }
      guard (event.seq ?? 0) >= from else { return }
      print(try Self.line(event, state: state, previous: previous, json: json, time: time))
    }
    let (session, first, last) = (session, from, to)
    try await store.withSessions { sessions in
      if first > 1, case let count = try await sessions.summary(of: session).eventCount, first > count {
        // Named as given, not as the event before it that the replay starts from.
        throw CLIError(StoreError.seqBeyondHistory(session: session, seq: first, last: count).terminalMessage)
      }
      try await sessions.replayHistory(of: session, from: max(1, first - 1), to: last, printLine)
    }
  }

  /// An event as a line: wire-format JSON, or for people.
  static func line(
    _ event: AnyEvent, state: AnyCoordinator, previous: Timestamp?, json: Bool, time: (Timestamp) -> String
  ) throws -> String {
    if json { return try WireFormat.canonicalString(event) }
    let screen = visibleScreen(of: state)
    let clock = previous.map { event.at < $0 } == true ? "  (clock went back)" : ""
    // A context with nothing to say to a reader (only the device's key) prints nothing.
    let context = event.operation.context.map(ContextText.line).flatMap { $0.isEmpty ? nil : "  [\($0)]" } ?? ""
    let cause = event.cause.map { "  because \(ScreenName.compact($0))" } ?? ""
    let time = time(event.at)
    // Each route the launch's restore left out, on a line of its own under the start.
    let dropped = (event.operation.launch?.dropped ?? []).map {
      "\n" + String(repeating: " ", count: time.count + 15) + "dropped " + ScreenName.printable($0.description)
    }
    return "\(time)  \(String(repeating: " ", count: max(0, 5 - String(event.seq ?? 0).count)))"
      + "\(event.seq ?? 0)  \(event.origin.rawValue.padding(toLength: 4, withPad: " ", startingAt: 0))  "
      + "\(ScreenName.printable(event.operation.summary))\(context)  → \(screen)\(cause)\(clock)"
      + dropped.joined()
  }

  /// The screen on top, in its compact form (`numberDetail(number: 3)`), so screens of one
  /// name but different payloads read apart.
  static func visibleScreen(of state: AnyCoordinator) -> String {
    guard let visible = state.visibleScreen else { return ScreenName.unknown }
    guard case .stack(let routes)? = try? state.coordinator(at: visible.coordinator),
      routes.indices.contains(visible.index)
    else {
      return ScreenName.printable(visible.name)
    }
    return ScreenName.compact(routes[visible.index].screen)
  }
}
