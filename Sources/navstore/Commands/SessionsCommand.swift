import ArgumentParser
import Foundation
import NavCore
import NavPersistence

/// `navstore sessions`: every session with its size, times and current depth.
struct SessionsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sessions",
    abstract:
      "List sessions: id, event count, first and last time, duration, depth, clock jumps, app version, the session restored.",
    discussion: """
      --json prints the sessions export's rows (export --table sessions --format jsonl), one \
      object per line with the CSV's columns in order: session, events, first_at, last_at, \
      duration_ms, depth, restored_from_session, restored_from_seq, clock_jumps, app_version, \
      app_build, os_name, os_version, device_model, locale, time_zone, user_id, app_context.

      Times are as the device gave them. CLOCK BACK counts events earlier than the event before \
      them (the device's clock went back); DURATION counts only the clock going forward, so it \
      is never negative.

      Examples:
        navstore sessions
        navstore sessions --json | jq -r 'select(.events > 100) | .session'
        navstore sessions --json | jq -r 'select(.clock_jumps > 0) | .session'
      """)

  @OptionGroup var store: StoreOption

  @Flag(help: "One JSON object per session per line.")
  var json = false

  func run() throws {
    let opened = try store.open(forWriting: false)
    if json {
      // The sessions export, so that the listing and the export are one shape.
      let sink = OutputSink()
      try storeCall { () throws(StoreError) in
        _ = try opened.exportEncoded(.sessions, format: .jsonl) { chunk in
          try sink.write { $0.append(contentsOf: chunk) }
        }
      }
      try sink.close()
      return
    }
    // Two passes over the listing, one row at a time each: the first finds the id column's
    // width, so that a store of any size is listed in constant memory.
    var idWidth = "SESSION".count
    var count = 0
    try storeCall { () throws(StoreError) in
      try opened.forEachSession { session in
        idWidth = max(idWidth, TerminalWidth.of(ScreenName.printable(session.id.rawValue)))
        count += 1
      }
    }
    guard count > 0 else {
      print("no sessions yet (add one with 'navstore append' or 'navstore import')")
      return
    }
    func pad(_ text: String, _ width: Int) -> String { TerminalWidth.padded(text, to: width) }
    func padLeft(_ text: String, _ width: Int) -> String {
      String(repeating: " ", count: max(0, width - text.count)) + text
    }
    print(
      pad("SESSION", idWidth) + "  EVENTS  " + pad("FIRST", 24) + "  " + pad("LAST", 24)
        + "  DURATION  DEPTH  CLOCK BACK  " + pad("APP", 12) + "  RESTORED FROM")
    try storeCall { () throws(StoreError) in
      try opened.forEachSession { session in
        print(
          pad(ScreenName.printable(session.id.rawValue), idWidth) + "  " + padLeft(String(session.eventCount), 6) + "  "
            + pad(session.firstAt?.rfc3339 ?? "-", 24) + "  " + pad(session.lastAt?.rfc3339 ?? "-", 24) + "  "
            + padLeft(Self.duration(session.durationMilliseconds), 8) + "  " + padLeft(String(session.depth), 5) + "  "
            + padLeft(session.clockJumps == 0 ? "-" : String(session.clockJumps), 10) + "  "
            + pad(ContextText.appVersion(session.context), 12) + "  " + (session.restoredFrom?.description ?? "-"))
      }
    }
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
