import ArgumentParser
import NavCore
import NavPersistence

/// `navstore sessions`: every session with its size, times and current depth.
struct SessionsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sessions",
    abstract: "List sessions: id, event count, first and last time, current depth, the session restored.",
    discussion: """
      --json prints one object per line: {"session", "events", "firstAt", "lastAt", "depth",
      "restoredFrom"}. restoredFrom is {"session", "seq"} for a session that began by restoring
      another, and null otherwise.

      Examples:
        navstore sessions
        navstore sessions --json | jq -r 'select(.events > 100) | .session'
      """)

  @OptionGroup var store: StoreOption

  @Flag(help: "One JSON object per session per line.")
  var json = false

  func run() throws {
    let opened = try store.open(forWriting: false)
    if json {
      try storeCall { () throws(StoreError) in
        try opened.forEachSession { session in print(try Self.jsonLine(session).canonicalString) }
      }
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
    func padLeft(_ text: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - text.count)) + text }
    print(pad("SESSION", idWidth) + "  EVENTS  " + pad("FIRST", 24) + "  " + pad("LAST", 24) + "  DEPTH  RESTORED FROM")
    try storeCall { () throws(StoreError) in
      try opened.forEachSession { session in
        print(
          pad(ScreenName.printable(session.id.rawValue), idWidth) + "  " + padLeft(String(session.eventCount), 6) + "  "
            + pad(session.firstAt?.rfc3339 ?? "-", 24) + "  " + pad(session.lastAt?.rfc3339 ?? "-", 24) + "  "
            + padLeft(String(session.depth), 5) + "  " + (session.restoredFrom?.description ?? "-"))
      }
    }
  }

  /// The `--json` line of a session.
  private static func jsonLine(_ session: SessionSummary) throws -> JSONValue {
    [
      "session": .string(session.id.rawValue), "events": .number(Double(session.eventCount)),
      "firstAt": session.firstAt.map { .string($0.rfc3339) } ?? .null,
      "lastAt": session.lastAt.map { .string($0.rfc3339) } ?? .null, "depth": .number(Double(session.depth)),
      "restoredFrom": try session.restoredFrom.map { try WireFormat.tree(of: $0) } ?? .null,
    ]
  }
}
