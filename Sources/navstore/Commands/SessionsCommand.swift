import ArgumentParser
import Foundation
import NavCore
import NavFleet
@_spi(Internals) import NavPersistence
@_spi(Internals) import NavTools

/// `navstore sessions`: every session with its size, times and current depth.
struct SessionsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sessions",
    abstract:
      "List sessions: id, event count, first and last time, duration, depth, clock jumps, app version, what the launch did, the session restored.",
    discussion: """
      --json prints the sessions export's rows (export --table sessions --format jsonl), one \
      object per line with the CSV's columns in order: \(ExportTable.sessions.columns.joined(separator: ", ")).

      Times are as the device gave them. CLOCK BACK counts events earlier than the event before \
      them (the device's clock went back); DURATION counts only the clock going forward, so it \
      is never negative. foreground_ms is the part of it the app spent in the foreground; phase \
      is foreground, background or ended. LAUNCH is what the launch that began the session did \
      (restored, restoredRoots, fresh, declined; - when the start did not say) and DROPPED how \
      many routes its restore left out: `navstore history` of the session lists each, with why.

      Examples:
        navstore sessions
        navstore sessions --json | jq -r 'select(.events > 100) | .session'
        navstore sessions --json | jq -r 'select(.clock_jumps > 0) | .session'
        navstore sessions --dropped-routes --app-version 2.4
        navstore sessions --launch declined --json | jq -r .launch_reason | sort | uniq -c
      """)

  @OptionGroup var store: StoreOption

  @Flag(help: "One JSON object per session per line.")
  var json = false

  @Option(
    help:
      "Only sessions active at or after this time: a date (midnight UTC) or a time (2026-11-21T15:00, 2026-11-21T16:00+01:00).",
    transform: timeArgument)
  var since: Timestamp?

  @Option(
    help: "Only sessions active at or before this time (a date alone is its first moment, midnight UTC).",
    transform: timeArgument)
  var until: Timestamp?

  @Option(name: .customLong("app-version"), help: "Only sessions of this app version, as the app gave it.")
  var appVersion: String?

  @Option(name: .customLong("os"), help: "Only sessions on this operating system (iOS, macOS, ...).")
  var osName: String?

  @Option(name: .customLong("os-version"), help: "Only sessions on this operating system version.")
  var osVersion: String?

  @Option(name: .customLong("device"), help: "Only sessions on this device model (iPhone15,2, ...).")
  var deviceModel: String?

  @Option(help: "Only sessions in this locale (fr_FR, ...).")
  var locale: String?

  @Option(name: .customLong("user"), help: "Only sessions with this user id, as the app chose it.")
  var userID: String?

  @Option(help: "Only sessions that showed this screen on top (its name, as the exports give it).")
  var screen: String?

  @Flag(help: "Only sessions that fail verification.")
  var failing = false

  @Flag(help: "Only sessions that began by restoring another.")
  var restored = false

  @Option(
    help: ArgumentHelp(
      "Only sessions whose launch did this: \(LaunchRecord.Outcome.allCases.map(\.rawValue).joined(separator: ", ")).",
      valueName: "outcome"),
    transform: Self.launchOutcome)
  var launch: LaunchRecord.Outcome?

  @Flag(help: "Only sessions whose launch's restore left routes out (screens an update no longer decodes).")
  var droppedRoutes = false

  @Option(help: "The order: id (the default), or last (latest activity first).")
  var sort: Order = .id

  @Option(help: "Print at most this many sessions.")
  var limit: Int?

  @OptionGroup var timeZone: TimeZoneOption

  enum Order: String, ExpressibleByArgument, CaseIterable {
    case id, last
  }

  private static func launchOutcome(_ text: String) throws -> LaunchRecord.Outcome {
    guard let outcome = LaunchRecord.Outcome(rawValue: text) else {
      throw ValidationError(
        "--launch must be one of \(LaunchRecord.Outcome.allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'"
      )
    }
    return outcome
  }

  func validate() throws {
    if let limit, limit < 1 { throw ValidationError("--limit must be 1 or more, not \(limit)") }
    if let since, let until, until < since {
      throw ValidationError("--until (\(until)) must not be before --since (\(since))")
    }
  }

  /// The filters a row can tell, and the order.
  var query: SessionQuery {
    var query = SessionQuery()
    query.since = since
    query.until = until
    query.appVersion = appVersion
    query.osName = osName
    query.osVersion = osVersion
    query.deviceModel = deviceModel
    query.locale = locale
    query.userID = userID
    query.restored = restored ? true : nil
    query.launch = launch
    query.droppedRoutes = droppedRoutes ? true : nil
    query.order = sort == .last ? .lastActivity : .id
    return query
  }

  /// Whether anything narrows or orders the listing.
  var selects: Bool { !query.filtersNothing || screen != nil || failing || sort != .id || limit != nil }

  func run() async throws {
    try await store.withSessions { sessions in try await list(sessions) }
  }

  /// The listing, the same lines from a store file and from PostgreSQL.
  private func list(_ sessions: any SessionSource) async throws {
    if !selects, json {
      // The sessions export, so that the listing and the export are one shape.
      let sink = OutputSink()
      try await sessions.export(.sessions, format: .jsonl, filter: ExportFilter(), progress: nil, to: sink)
      try sink.close()
      return
    }
    if selects {
      try await listSelected(sessions)
      return
    }
    // Two passes over the listing, one row at a time each: the first finds the id column's
    // width, so that a store of any size is listed in constant memory.
    var idWidth = "SESSION".count
    var count = 0
    try await sessions.forEachSession(matching: query) { session in
      idWidth = max(idWidth, TerminalWidth.of(ScreenName.printable(session.id.rawValue)))
      count += 1
      return true
    }
    guard count > 0 else {
      print("no sessions yet (add one with 'navstore append' or 'navstore import')")
      return
    }
    let time = timeZone.formatter()
    print(Self.header(idWidth: idWidth, timeWidth: Self.timeWidth(time)))
    try await sessions.forEachSession(matching: query) { session in
      print(Self.row(session, idWidth: idWidth, timeWidth: Self.timeWidth(time), time: time))
      return true
    }
  }

  /// The sessions the filters keep, in the order asked, up to the limit: the row filters as the
  /// store lists them, then a screen shown and verification, read per session.
  private func listSelected(_ sessions: any SessionSource) async throws {
    var kept: [SessionSummary] = []
    try await sessions.forEachSession(matching: query) { session in
      if let screen, try await !sessions.showedScreen(named: screen, in: session.id) { return true }
      if failing, try await sessions.isIntact(session.id) { return true }
      kept.append(session)
      return limit.map { kept.count < $0 } ?? true
    }
    if json {
      // Each session's row of the sessions export, its screen count replayed as the export does.
      let sink = OutputSink()
      for session in kept {
        try await sessions.export(
          .sessions, format: .jsonl, filter: ExportFilter(session: session.id), progress: nil, to: sink)
      }
      try sink.close()
      return
    }
    list(kept)
  }

  /// Prints the sessions kept as a table.
  private func list(_ kept: [SessionSummary]) {
    guard !kept.isEmpty else {
      print("no session matches")
      return
    }
    let idWidth = kept.map { TerminalWidth.of(ScreenName.printable($0.id.rawValue)) }.max().map { max($0, 7) } ?? 7
    let time = timeZone.formatter()
    print(Self.header(idWidth: idWidth, timeWidth: Self.timeWidth(time)))
    for session in kept {
      print(Self.row(session, idWidth: idWidth, timeWidth: Self.timeWidth(time), time: time))
    }
  }

  /// The width of a time in the chosen zone: 24 in UTC, 29 with an offset.
  private static func timeWidth(_ time: (Timestamp) -> String) -> Int {
    time(Timestamp(millisecondsSince1970: 0)).count
  }

  private static func header(idWidth: Int, timeWidth: Int) -> String {
    pad("SESSION", idWidth) + "  EVENTS  " + pad("FIRST", timeWidth) + "  " + pad("LAST", timeWidth)
      + "  DURATION  DEPTH  CLOCK BACK  " + pad("APP", 12) + "  " + pad("LAUNCH", 13) + "  DROPPED  RESTORED FROM"
  }

  private static func row(
    _ session: SessionSummary, idWidth: Int, timeWidth: Int, time: (Timestamp) -> String
  ) -> String {
    pad(ScreenName.printable(session.id.rawValue), idWidth) + "  " + padLeft(String(session.eventCount), 6) + "  "
      + pad(session.firstAt.map(time) ?? "-", timeWidth) + "  " + pad(session.lastAt.map(time) ?? "-", timeWidth)
      + "  " + padLeft(duration(session.durationMilliseconds), 8) + "  " + padLeft(String(session.depth), 5) + "  "
      + padLeft(session.clockJumps == 0 ? "-" : String(session.clockJumps), 10) + "  "
      + pad(ContextText.appVersion(session.context), 12) + "  " + pad(session.launch?.rawValue ?? "-", 13) + "  "
      + padLeft(session.droppedRoutes == 0 ? "-" : String(session.droppedRoutes), 7) + "  "
      + (session.restoredFrom?.description ?? "-")
  }

  private static func pad(_ text: String, _ width: Int) -> String { TerminalWidth.padded(text, to: width) }

  private static func padLeft(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
  }

  /// A duration for people: `42.5s`, `12m05s`, `3h07m`, `12d04h`.
  static func duration(_ milliseconds: Int64) -> String {
    let seconds = milliseconds / 1000
    if seconds < 60 { return String(format: "%.1fs", Double(milliseconds) / 1000) }
    if seconds < 3600 { return String(format: "%dm%02ds", seconds / 60, seconds % 60) }
    if seconds < 48 * 3600 { return String(format: "%dh%02dm", seconds / 3600, (seconds % 3600) / 60) }
    return String(format: "%dd%02dh", seconds / 86_400, (seconds % 86_400) / 3600)
  }
}
