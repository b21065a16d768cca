import ArgumentParser
import Foundation
import NavCore
import NavFleet
@_spi(Internals) import NavPersistence
import NavReport

/// `navstore report`: a session as a page that support and QA open in a browser.
struct ReportCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "report",
    abstract: "Write a session (or every session) as a self-contained HTML page.",
    discussion: """
      One HTML file per session, with everything inline (CSS, script, SVG): it opens offline \
      and from file://, attached to a ticket. It shows the session's facts and whether it \
      verifies, a timeline of the screens on top (a lane per presentation layer; the user's \
      gestures marked apart from the app's changes), the events, the state after any chosen \
      event, and the restore plan to it under a chosen host profile. A long session shows \
      2,000 events around --at (default: the last). A session restored from another links that \
      session's page; --with-ancestors writes it (and its own ancestors') beside it. --all writes \
      one page per session and an index.html into --out. --delay-ms times the restore plans as \
      the app plays them. --omit-payloads leaves screens' payloads and causes out.

      Examples:
        navstore report demo-onboarding --out onboarding.html
        navstore report demo-tabs --at 5
        navstore report 2f9c-after-update --with-ancestors --delay-ms 400
        navstore report --all --out reports
      """)

  @OptionGroup var store: StoreOption

  @Argument(help: "The session (or --all).", transform: sessionArgument)
  var session: SessionID?

  @Flag(help: "Every session, one page each, and an index; needs --out DIR.")
  var all = false

  @Option(help: "The file to write (default: the session id, made safe, .html); with --all, the folder.")
  var out: String?

  @Option(parsing: .unconditional, help: "The seq the page opens on (default: the last).")
  var at: Int?

  @Flag(help: "Leave screens' payloads and causes out (screen names stay).")
  var omitPayloads = false

  @Flag(help: "Also write the page of each session it continues (restored from), beside it, where its link points.")
  var withAncestors = false

  @Option(
    name: .customLong("delay-ms"), parsing: .unconditional,
    help: "Milliseconds between a restore plan's steps: the app's delay (the page can change it).")
  var delayMilliseconds: Int = StepPlan<JSONValue>.defaultDelayMilliseconds

  func validate() throws {
    if all, session != nil { throw ValidationError("give a session or --all, not both") }
    if !all, session == nil { throw ValidationError("name a session, or give --all") }
    if all, out == nil { throw ValidationError("--all needs --out DIR, the folder the pages go to") }
    if all, at != nil { throw ValidationError("--at chooses one session's seq; it does not go with --all") }
    if all, withAncestors { throw ValidationError("--all writes every session's page; --with-ancestors is for one") }
    if let at, at < 1 { throw ValidationError("--at: seqs start at 1 (got \(at))") }
    guard (0...PlanningOptions.longestDelay).contains(delayMilliseconds) else {
      throw ValidationError(
        "--delay-ms must be from 0 to \(PlanningOptions.longestDelay) (one day), not \(delayMilliseconds)")
    }
  }

  func run() async throws {
    let omitting = omitPayloads
    try await store.withSessions { sessions in
      if all, let out {
        let summaries = try await sessions.allSessions()
        try await writeAll(summaries, into: out) { summary throws(FleetError) in
          try await sessions.report(of: summary.id, focus: nil, omitsPayloads: omitting)
        }
      } else if let session {
        try await writeOne(session) { id, focus throws(FleetError) in
          try await sessions.report(of: id, focus: focus, omitsPayloads: omitting)
        }
      }
    }
  }

  /// The sessions `--with-ancestors` follows back at most (a chain of restores that long is a
  /// loop someone made by hand).
  static let ancestorLimit = 1_000

  /// Writes `session`'s page where `--out` says (or a name made from its id), and with
  /// `--with-ancestors` the page of each session it continues, beside it, opening at the event it
  /// was restored from, so that the page's links open.
  private func writeOne(
    _ session: SessionID, load: (SessionID, _ focus: Int?) async throws(FleetError) -> SessionReport
  ) async throws(CLIError) {
    let report = try await fleetCall { () async throws(FleetError) in try await load(session, at) }
    let path = out ?? ReportFileName.of(report.session)
    try write(page(report), to: path)
    print("wrote \(path) (\(report.events.count) of \(report.eventCount) events)")
    guard withAncestors else {
      if let link = report.restoredFrom {
        print("it continues \(link.session): --with-ancestors writes that session's page beside it, where it links")
      }
      return
    }
    let folder = (path as NSString).deletingLastPathComponent
    var seen: Set<SessionID> = [session]
    var link = report.restoredFrom
    while let next = link, seen.insert(next.session).inserted, seen.count <= Self.ancestorLimit {
      let ancestor: SessionReport
      var shortBy = false
      do throws(FleetError) {
        ancestor = try await load(next.session, next.seq)
      } catch {
        switch error {
        case .history(.unknownSession):
          print("it continues \(next.session), which this store does not hold (forgotten, or never uploaded)")
          return
        case .history(.seqBeyondHistory):
          // The device restored from events it never uploaded: the page opens at its last.
          ancestor = try await fleetCall { () async throws(FleetError) in try await load(next.session, nil) }
          shortBy = true
        default:
          throw CLIError(error.terminalMessage)
        }
      }
      let file = (folder as NSString).appendingPathComponent(ReportFileName.of(next.session))
      try write(page(ancestor), to: file)
      print(
        shortBy
          ? "wrote \(file), the session it continues, opening at its last seq \(ancestor.eventCount): "
            + "this store holds none of it after that, and it was restored from seq \(next.seq)"
          : "wrote \(file), the session it continues, opening at seq \(next.seq)")
      link = ancestor.restoredFrom
    }
  }

  /// A session's page, its restore plans timed for `--delay-ms`.
  private func page(_ report: SessionReport) -> String {
    var timed = report
    timed.planDelayMilliseconds = delayMilliseconds
    return ReportPage.html(timed)
  }

  /// Writes a page for each of `summaries` (made by `load`) and an index into `folder`.
  private func writeAll(
    _ summaries: [SessionSummary], into folder: String,
    load: (SessionSummary) async throws(FleetError) -> SessionReport
  ) async throws(CLIError) {
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw CLIError("--out: cannot create the folder '\(folder)': \(LineReaderError.systemReason(for: error))")
    }
    let progress = ProgressCounter(label: "reporting", unit: "sessions")
    var entries: [IndexPage.Entry] = []
    var taken: Set<String> = ["index.html"]
    var unreported: [(session: SessionID, problem: String)] = []
    for (index, summary) in summaries.enumerated() {
      progress.update(index + 1)
      let report: SessionReport
      do throws(FleetError) {
        report = try await load(summary)
      } catch {
        // One session whose history no longer replays (a damaged store) does not stop the
        // others' pages: the index names it with the reason, and the command fails at the end.
        guard error.comesFromTheStore, !error.isStorageFailure else { throw CLIError(error.terminalMessage) }
        entries.append(IndexPage.Entry(summary: summary, problem: error.terminalMessage))
        unreported.append((summary.id, error.terminalMessage))
        continue
      }
      let file = ReportFileName.unique(summary.id, taken: &taken)
      try write(page(report), to: (folder as NSString).appendingPathComponent(file))
      entries.append(IndexPage.Entry(summary: summary, verified: report.verification?.isIntact ?? false, file: file))
    }
    progress.finish()
    let index = (folder as NSString).appendingPathComponent("index.html")
    try write(IndexPage.html(entries), to: index)
    let written = entries.count - unreported.count
    print("wrote \(written) report\(written == 1 ? "" : "s") and \(index)")
    if let first = unreported.first {
      let others = unreported.count > 1 ? " (and \(unreported.count - 1) more, named in the index)" : ""
      throw CLIError("no report for session '\(first.session)': \(first.problem)\(others)")
    }
  }

  private func write(_ html: String, to path: String) throws(CLIError) {
    do {
      try Data(html.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw CLIError("cannot write '\(path)': \(LineReaderError.systemReason(for: error))")
    }
  }
}
