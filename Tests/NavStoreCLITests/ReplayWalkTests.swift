import Foundation
import NavCore
import NavTestSupport
import Testing

/// `navstore replay --walk`: the user's path event by event, as `history` prints each event,
/// with the time since the start and the host's updates; at once, as JSON, or on Enter.
@Suite(.waitsOnProcesses) struct ReplayWalkTests: CommandSuite {
  let folder: URL
  /// Removed, with what the test wrote, when the test ends.
  let temporary: TemporaryFolder

  init() throws {
    temporary = try TemporaryFolder()
    folder = temporary.url
    #expect(try NavStoreProcess.run(["demo", "--no-wait", "--db", "navstore.sqlite"], in: folder).status == 0)
  }

  @Test func aWalkIsTheHistoryWithTimesSinceTheStartAndTheHostsUpdates() throws {
    let walk = try navstore("replay", "demo-killed-relaunch", "--walk", "--no-wait")
    #expect(walk.status == 0, "\(walk.stderr)")
    let history = try navstore("history", "demo-killed-relaunch").stdoutLines
    #expect(
      walk.stdoutLines.first == "Walking demo-killed-relaunch, 5 events, under navigation-view, without waiting")
    let lines = Array(walk.stdoutLines.dropFirst())
    #expect(lines.count == history.count)
    for (line, event) in zip(lines, history) {
      #expect(line.firstRange(of: event) != nil, "\(line) does not hold \(event)")
    }
    #expect(lines.first?.hasPrefix("+0.0s    ") == true && lines.last?.hasPrefix("+21.4s   ") == true, "\(lines)")
    // The restored start is played from its launch state: one update on this host, which a
    // line leaves unsaid (it names two or more).
    #expect(lines.allSatisfy { $0.firstRange(of: "updates on") == nil }, "\(lines)")
    let start = try navstore("replay", "demo-killed-relaunch", "--walk", "--no-wait", "--json").stdoutLines.first
    #expect(start?.hasSuffix(#""seq":1,"updates":1}"#) == true, "\(start ?? "")")
    #expect(try navstore("replay", "demo-killed-relaunch", "--at", "2", "--walk", "--no-wait").stdoutLines.count == 3)
  }

  /// A restore of two pushes takes two updates where a host shows one push at a time, one where
  /// pushes join.
  @Test func aLineSaysHowManyUpdatesTheHostNeeds() throws {
    let root = #"{"style":"root","withNavigation":true,"screen":"home"}"#
    let lines = [
      #"{"session":"s-0","at":"2026-11-21T10:00:00.000Z","op":{"op":"start","state":{"routes":[\#(root)]}}}"#,
      #"{"session":"s-0","at":"2026-11-21T10:00:01.000Z","op":{"op":"push","screen":"a"}}"#,
      #"{"session":"s-0","at":"2026-11-21T10:00:02.000Z","op":{"op":"push","screen":"b"}}"#,
      #"{"session":"s-1","at":"2026-11-21T11:00:00.000Z","op":{"op":"start","restoredFrom":{"session":"s-0","seq":3},"#
        + #""state":{"routes":[\#(root),{"style":"push","screen":"a"},{"style":"push","screen":"b"}]}}}"#,
    ]
    try (lines.joined(separator: "\n") + "\n").write(
      to: folder.appendingPathComponent("line.jsonl"), atomically: true, encoding: .utf8)
    #expect(try navstore("import", "line.jsonl", "--db", "line.sqlite").status == 0)
    let oneAtATime = try navstore("replay", "s-1", "--walk", "--no-wait", "--db", "line.sqlite")
    #expect(oneAtATime.stdoutLines.last?.hasSuffix("(2 updates on navigation-view)") == true, "\(oneAtATime.stdout)")
    let joined = try navstore(
      "replay", "s-1", "--walk", "--no-wait", "--host", "navigation-stack", "--db", "line.sqlite")
    #expect(joined.stdoutLines.last?.firstRange(of: "updates on") == nil, "\(joined.stdout)")
  }

  @Test func aWalkInJSONIsAnObjectPerEvent() throws {
    let walk = try navstore("replay", "demo-tabs", "--walk", "--no-wait", "--json")
    #expect(walk.status == 0, "\(walk.stderr)")
    let objects = try walk.stdoutLines.map { try WireFormat.decode(JSONValue.self, from: $0) }
    #expect(objects.count == 15)
    #expect(
      walk.stdoutLines.first
        == #"{"at":"2026-11-21T09:15:00.000Z","cause":{"appLaunched":{}},"offsetMs":0,"op":"start","origin":"app","screen":"feed","seq":1,"updates":0}"#
    )
    #expect(walk.stdoutLines[2].firstRange(of: #""origin":"user""#) != nil)
  }

  @Test func aSteppedWalkPrintsAnEventEachTimeEnterIsPressed() throws {
    let process = Process()
    process.executableURL = NavStoreProcess.binary
    process.arguments = ["replay", "demo-killed-relaunch", "--walk", "--step", "--db", "navstore.sqlite"]
    process.currentDirectoryURL = folder
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let lines = LineCollector(output.fileHandleForReading)
    // The header and the first event, then nothing until Enter.
    #expect(lines.wait(for: 2, seconds: 20) == 2)
    Thread.sleep(forTimeInterval: 0.5)
    #expect(lines.count == 2, "\(lines.all)")
    input.fileHandleForWriting.write(Data("\n".utf8))
    #expect(lines.wait(for: 3, seconds: 20) == 3)
    Thread.sleep(forTimeInterval: 0.5)
    #expect(lines.count == 3, "\(lines.all)")
    // At the end of standard input, the rest at once.
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0 && lines.wait(for: 6, seconds: 20) == 6, "\(lines.all)")
  }

  @Test func theWalksOptionsAreChecked() throws {
    #expect(try navstore("replay", "demo-tabs", "--step").stderr.firstRange(of: "--step goes with --walk") != nil)
    #expect(try navstore("replay", "demo-tabs", "--walk", "--step", "--no-wait").status != 0)
  }
}

/// The lines a process writes, collected as they come.
final class LineCollector: @unchecked Sendable {
  private let lock = NSLock()
  private var text = ""

  init(_ handle: FileHandle) {
    handle.readabilityHandler = { [weak self] handle in
      let data = handle.availableData
      guard let self, !data.isEmpty else {
        handle.readabilityHandler = nil
        return
      }
      self.lock.withLock { self.text += String(decoding: data, as: UTF8.self) }
    }
  }

  var all: [String] { lock.withLock { text.split(separator: "\n").map(String.init) } }
  var count: Int { all.count }

  /// Waits until `count` lines came, or `seconds` passed; the lines come so far.
  func wait(for count: Int, seconds: Double) -> Int {
    let deadline = Date().addingTimeInterval(seconds)
    while self.count < count, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    return self.count
  }
}
