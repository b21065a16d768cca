import ArgumentParser
import Foundation
import NavCore
import NavFleet
@_spi(Internals) import NavPersistence
@_spi(Internals) import NavTools

/// `navstore export`: analytics tables as CSV or JSON Lines, streamed from the store.
struct ExportCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract:
      "Export events, sessions, screen views or transitions as CSV or JSON Lines, or as Segment or OpenTelemetry events.",
    discussion: """
      Tables and their columns:
        events        \(ExportTable.events.columns.joined(separator: ", "))
                      (JSON Lines: the wire-format events, which 'navstore import' reads back)
        sessions      \(ExportTable.sessions.columns.joined(separator: ", "))
        screen-views  \(ExportTable.screenViews.columns.joined(separator: ", "))
                      (one row per period a screen was on top; exited_at empty while it still is)
        transitions   \(ExportTable.transitions.columns.joined(separator: ", "))

      CSV has a header row and RFC 4180 quoting; JSON Lines rows have the same keys in the same \
      order. --schema prints the table's CREATE TABLE, each column's SQL type, for loading CSV \
      without a reader guessing types (an app_build of 412 read as a number). Rows stream from the store (a file, or a PostgreSQL database) in constant memory.

      --format segment and --format otlp send the screen views as events, one per line, each \
      written once, at the moment it happened: a visit of a screen as it began (with the screen \
      before it and the time spent there, how the user arrived and the app's action), the \
      session's start and end, the app leaving and coming back. segment lines are Segment \
      calls (screen, and track: Application Opened, Application Backgrounded, Session Ended) \
      for its HTTP tracking API or a batch of it; otlp lines are OTLP/HTTP JSON requests \
      (resourceLogs) for an OpenTelemetry collector's /v1/logs or its otlpjsonfile receiver.

      Screen views and transitions follow what the user saw: consecutive events with the same \
      time, origin and cause (one action, like a recorded deep link) are one change. Times are \
      as the device gave them; durations count only the clock going forward, so they are never \
      negative, and clock_went_back marks where the clock went back.

      Screen views stand alone: each row says how the user arrived (arrival: start, restore, \
      push, present, back, dismiss, tab, deep_link, replace; direction: forward or return; \
      origin: user or app), \
      from which screen (previous_screen), in which tab, by which of the \
      app's actions (cause_action, cause), and which visit it belongs to (visit_id: a view and \
      its continuations after the background; WHERE view_id = visit_id counts each visit once).

      Columns that can hold personal data: the screens' values (the events' operation, \
      screen_payload, screen_params, from_payload, to_payload), the app's actions (cause), the \
      sessions' user_id and app_context, and session ids, if the app makes them from user ids. \
      --omit-payloads empties all of these but the session ids (and a declined launch's \
      launch_reason, the app's own words), and keeps names, paths and times, for handing \
      analytics to people who must not see user data.

      Incremental pulls: every row has a received column, the order in which the store \
      received its newest event (not the device's time), and every export answers to a cursor, \
      which it prints on standard error and writes to --cursor-out FILE once complete. The next \
      export with --after CURSOR hands out exactly what arrived since: an upload that comes late \
      is in it, and an event is never in two. A screen view still on screen, or a session still \
      going, comes again once later events change its row: load those two tables by view_id \
      and session, replacing the row kept.

      Examples:
        navstore export --table screen-views --format csv --out views.csv
        navstore export --table sessions --schema --out sessions.sql
        navstore export --table screen-views --format csv --after 41 --cursor-out cursor \\
          --out views-new.csv
        navstore export --table events --format jsonl --session s-1 \\
          --since 2026-11-21T00:00:00.000Z
        navstore export --table events --format csv --omit-payloads \\
          --out events-for-analysts.csv
        navstore export --table screen-views --format csv --omit-payloads \\
          --keep-payload-fields productDetail.id --out views-for-analysts.csv
        navstore export --format otlp --after 41 --cursor-out cursor --out navigation.otlp.jsonl
        navstore export --table screen-views --format csv --app-version 2.4 \\
          --since 2026-11-01 --until 2026-12-01 --out november-2.4.csv
      """)

  @OptionGroup var store: StoreOption

  @Option(
    help: "The table: events, sessions, screen-views or transitions (segment and otlp: screen-views, the default).")
  var table: ExportTable?

  @Option(help: "csv, jsonl, segment (Segment calls) or otlp (OpenTelemetry log records, OTLP/HTTP JSON).")
  var format: ExportFormat?

  @Flag(
    help:
      "Print the table's CREATE TABLE (each column's SQL type, for DuckDB, PostgreSQL or SQLite) instead of its rows.")
  var schema = false

  @Option(help: "Write to this file instead of standard output.")
  var out: String?

  @Option(help: "Only this session.", transform: sessionArgument)
  var session: SessionID?

  @Option(
    help:
      "Only rows from this time on: a date (2026-11-21: midnight UTC) or a time (2026-11-21T10:15, 2026-11-21T11:15+01:00).",
    transform: timeArgument)
  var since: Timestamp?

  @Option(
    help:
      "Only rows up to this time, itself included (a date alone is its first moment, midnight UTC); sessions: those begun by then.",
    transform: timeArgument)
  var until: Timestamp?

  @Option(name: .customLong("app-version"), help: "Only the rows of sessions of this app version, as the app gave it.")
  var appVersion: String?

  @Option(name: .customLong("device"), help: "Only the rows of sessions on this device model (iPhone15,2, ...).")
  var deviceModel: String?

  @Flag(
    help: """
      Leave out what can hold personal data: the screens' values, the app's actions, the sessions' \
      user_id and app_context. (The events' JSON Lines are whole events: export them as CSV.)
      """)
  var omitPayloads = false

  @Option(
    help: ArgumentHelp(
      "With --omit-payloads, keep these fields of each value all the same: paths of keys joined by dots, separated by commas (productDetail.id,addToCart.items.productId).",
      valueName: "paths"))
  var keepPayloadFields: [String] = []

  @Option(help: "Only what the store received after this cursor: the one the last export answered to.")
  var after: Int64?

  @Option(
    help: "Once the export is complete, write the cursor it answers to in this file: the --after of the next pull.")
  var cursorOut: String?

  func validate() throws {
    if format == nil, !schema { throw ValidationError("Missing expected argument '--format <format>'") }
    if table == nil, format?.isEventShaped != true {
      throw ValidationError("Missing expected argument '--table <table>'")
    }
    if let format, let table, !format.writes(table) {
      throw ValidationError(
        "--format \(format.rawValue) sends the screen views as events: use --table screen-views, or leave --table out")
    }
    if !keepPayloadFields.isEmpty, !omitPayloads {
      throw ValidationError(
        "--keep-payload-fields keeps fields of what --omit-payloads leaves out; add --omit-payloads")
    }
    do {
      _ = try PayloadRedaction.paths(keepPayloadFields)
    } catch {
      throw ValidationError("--keep-payload-fields: \(error)")
    }
    for (option, value) in [("--app-version", appVersion), ("--device", deviceModel)] where value?.isEmpty == true {
      throw ValidationError("\(option) needs a value, as the sessions' context gives it")
    }
    let narrowed =
      session != nil || since != nil || until != nil || appVersion != nil || deviceModel != nil || omitPayloads
      || after != nil || cursorOut != nil || format != nil
    if schema, narrowed {
      throw ValidationError("--schema prints the table's columns and their types: it takes only --table and --out")
    }
    if let after, after < 0 {
      throw ValidationError("--after: a cursor is a whole number from 0, as an export printed it")
    }
    if let since, let until, until < since {
      throw ValidationError("--until (\(until)) must not be before --since (\(since))")
    }
    if omitPayloads, table == .events, format == .jsonl, !schema {
      throw ValidationError("--omit-payloads: the events' JSON Lines are whole wire-format events; use --format csv")
    }
  }

  func run() async throws {
    let table = table ?? .screenViews
    guard let format, !schema else {
      let sink = try out.map { path throws(CLIError) in try OutputSink(path: path) } ?? OutputSink()
      let schema = table.createTable
      try sink.write { $0.append(contentsOf: schema.utf8) }
      try sink.close()
      return
    }
    let filter = ExportFilter(
      session: session, since: since, until: until, appVersion: appVersion, deviceModel: deviceModel,
      omitsPayloads: omitPayloads, keptPayloadFields: (try? PayloadRedaction.paths(keepPayloadFields)) ?? [],
      after: after)
    let cursorOut = cursorOut
    try await store.withSessions { sessions in
      let sink = try out.map { path throws(CLIError) in try OutputSink(path: path) } ?? OutputSink()
      let cursorSink = try cursorOut.map { path throws(CLIError) in try OutputSink(path: path, option: "--cursor-out") }
      let progress = ProgressCounter(label: "exporting", unit: "rows")
      let cursor = try await sessions.export(table, format: format, filter: filter, progress: progress.update, to: sink)
      progress.finish()
      try sink.close()
      // Written only once the rows are in place: a failed export leaves the last cursor.
      try cursorSink?.write { $0.append(contentsOf: "\(cursor)\n".utf8) }
      try cursorSink?.close()
      FileHandle.standardError.write(Data("navstore: cursor \(cursor) (the next pull: --after \(cursor))\n".utf8))
    }
  }
}
