import ArgumentParser
import Foundation
import NavCore
import NavFleet
@_spi(Internals) import NavPersistence

/// `navstore demo`: a store of a sample app's sessions, a replay of one, and what to try next.
struct DemoCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "demo",
    abstract: "Build a demo store of a sample app's sessions, replay one, and show what to try next.",
    discussion: """
      The sample app has a home screen, a numbers list in a sheet with navigation, number \
      details pushed several deep, a nested onboarding flow, and a tabs section. Its sessions \
      include back-swipes, swipe-dismissals and deep links. The store is navstore-demo.sqlite \
      unless --db; it is rebuilt on every run, and a file holding other sessions is refused.

      Examples:
        navstore demo
        navstore demo --db /tmp/demo.sqlite --no-wait
        navstore demo --start 2026-12-01T08:00:00Z
      """)

  @Option(name: .customLong("db"), help: "The demo store.")
  var path: String = "navstore-demo.sqlite"

  @Flag(help: "Replay without waiting between steps.")
  var noWait = false

  @Option(
    help: ArgumentHelp(
      "When the first session starts: a date, or a date and time (UTC unless it names an offset).",
      discussion: "2026-11-21T09:00:00Z unless given: the same store on every run.", valueName: "time"),
    transform: timeArgument)
  var start: Timestamp = DemoApp.defaultStart

  func validate() throws {
    if PostgresAddress.isAddress(path) {
      throw ValidationError(
        "--db: the demo builds a store file of its own; for its sessions on PostgreSQL, export them "
          + "('navstore export --db navstore-demo.sqlite --table events --format jsonl --out demo.jsonl') "
          + "and import the file ('navstore import demo.jsonl --db postgres://... --app NAME')")
    }
  }

  func run() throws {
    try clearPreviousDemo()
    let store = try StoreOption.open(path: path, forWriting: true)
    let sessions = try DemoApp(firstSessionStart: start).sessions()
    for session in sessions {
      _ = try storeCall { () throws(StoreError) in try store.append(contentsOf: session.events) }
    }
    let events = sessions.map(\.events.count).reduce(0, +)
    print("Built \(path): \(sessions.count) sessions, \(events) events of a sample app.\n")
    let replayed = try SessionID("demo-numbers")
    let current = try storeCall { () throws(StoreError) in try store.state(of: replayed, at: 5) }
    let (state, seq) = (current.state, current.seq)
    try ReplayPlayer(host: .navigationView, delayMilliseconds: 650, speed: noWait ? nil : 2, json: false)
      .play(session: replayed, seq: seq, state: state)
    let db = path == "navstore-demo.sqlite" ? "--db navstore-demo.sqlite" : "--db '\(path)'"
    print(
      """

      Try next:
        navstore sessions \(db)
        navstore history demo-numbers \(db)
        navstore show demo-tabs \(db)
        navstore show demo-numbers --at 6 \(db)
        navstore replay demo-onboarding --at 7 --host navigation-stack \(db)
        navstore verify \(db)
        navstore export --table screen-views --format csv \(db)
        navstore export --table transitions --format jsonl \(db)
        navstore report demo-tabs --out demo-tabs.html \(db)
      """)
  }

  /// Removes a previous demo store; refuses a file that holds anything else.
  private func clearPreviousDemo() throws {
    guard FileManager.default.fileExists(atPath: path) else { return }
    let existing = try StoreOption.open(path: path, forWriting: false)
    let ids = try storeCall { () throws(StoreError) in try existing.sessions() }.map { $0.id.rawValue }
    guard ids.allSatisfy({ $0.hasPrefix("demo-") }) else {
      throw CLIError("'\(path)' holds sessions that are not the demo's; give the demo its own --db")
    }
    for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
      do {
        try FileManager.default.removeItem(atPath: path + suffix)
      } catch {
        throw CLIError("cannot replace the previous demo store '\(path)': \(error.localizedDescription)")
      }
    }
  }
}
