import Foundation
import NavCore
import NavPersistence
import NavTestSupport
import Testing

/// Processes killed with SIGKILL at random moments, in the middle of appends and imports: the
/// store stays intact and keeps every event a process reported as appended.
///
/// 50 kills by default; `NAVSTORE_CRASH_DRILLS=N swift test --filter CrashDrill` runs N.
@Suite(.waitsOnProcesses) struct CrashDrillTests {
  static var rounds: Int {
    ProcessInfo.processInfo.environment["NAVSTORE_CRASH_DRILLS"].flatMap(Int.init) ?? 50
  }

  @Test func killedWritersLoseNothingTheyReported() throws {
    let temporary = try TemporaryFolder()
    defer { withExtendedLifetime(temporary) {} }  // removed when the test ends
    let folder = temporary.url
    let store = folder.appendingPathComponent("drill.sqlite").path
    let start = try NavStoreProcess.run(
      [
        "append", "s", "--db", store, "--op",
        #"{"op":"start","state":{"routes":[{"style":"root","withNavigation":true,"screen":"home"}]}}"#,
      ])
    try #require(start.status == 0, "\(start.stderr)")

    var reported: Set<Int> = [1]
    var killed = 0
    var generator = SystemRandomNumberGenerator()
    for round in 0..<Self.rounds {
      let process = Process()
      process.executableURL = NavStoreProcess.binary
      let output = Pipe()
      let input = Pipe()
      process.standardOutput = output
      process.standardInput = input
      process.standardError = FileHandle.nullDevice
      if round.isMultiple(of: 3) {
        // An import committing every line, killed part way through.
        process.arguments = ["import", "-", "--batch", "1", "--db", store]
      } else {
        process.arguments = [
          "append", "s", "--db", store, "--op", #"{"op":"presentSheet","screen":{"round":\#(round)}}"#,
        ]
      }
      try process.run()
      if round.isMultiple(of: 3) {
        let lines = (0..<200).map { index in
          #"{"session":"s","at":"2026-11-21T10:00:00.000Z","op":{"op":"presentSheet","screen":{"import":[\#(round),\#(index)]}}}"#
        }
        try? input.fileHandleForWriting.write(contentsOf: Data((lines.joined(separator: "\n") + "\n").utf8))
      }
      try? input.fileHandleForWriting.close()
      usleep(UInt32.random(in: 0...40_000, using: &generator))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      if process.terminationReason == .uncaughtSignal { killed += 1 }
      let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      if process.terminationStatus == 0, process.terminationReason == .exit,
        let seq = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
      {
        reported.insert(seq)
      }
    }

    let connection = try SQLiteConnection(path: store, mode: .readOnly)
    #expect(try connection.text("PRAGMA integrity_check") == "ok")
    let sessions = try SessionStore(path: store, options: StoreOptions(access: .readOnly))
    let seqs = try sessions.history(of: try SessionID("s")).compactMap(\.seq)
    #expect(seqs == Array(1...seqs.count), "seqs have gaps")
    #expect(
      reported.isSubset(of: Set(seqs)),
      "an append that reported its seq was lost: \(reported.subtracting(seqs).sorted())")
    #expect(try sessions.verify().allSatisfy(\.isIntact))
    #expect(
      killed > Self.rounds / 4, "only \(killed) of \(Self.rounds) processes were killed mid-way; the drill tests little"
    )
  }
}
