import Foundation
import NavCore
import NavPersistence
import NavTestSupport
import Testing

/// Separate navstore processes writing at once: on one session each seq has exactly one winner
/// and every loser is told the expected and actual seq; on different sessions nothing is lost.
@Suite(.waitsOnProcesses) struct ProcessRaceTests {
  let folder: URL
  /// Removed, with what the test wrote, when the test ends.
  let temporary: TemporaryFolder
  let store: String

  init() throws {
    temporary = try TemporaryFolder()
    folder = temporary.url
    store = folder.appendingPathComponent("race.sqlite").path
  }

  static let start = #"{"op":"start","state":{"routes":[{"style":"root","withNavigation":true,"screen":"home"}]}}"#

  /// Starts `arguments` for every writer at once and collects their results.
  func runTogether(_ arguments: [[String]]) throws -> [NavStoreProcess.Result] {
    var processes: [(Process, Pipe, Pipe)] = []
    for argument in arguments {
      let process = Process()
      process.executableURL = NavStoreProcess.binary
      process.arguments = argument
      let output = Pipe()
      let errors = Pipe()
      process.standardOutput = output
      process.standardError = errors
      processes.append((process, output, errors))
    }
    for (process, _, _) in processes { try process.run() }
    return processes.map { process, output, errors in
      let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      return NavStoreProcess.Result(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }
  }

  @Test(arguments: [2, 4])
  func writersClaimingTheSameSeqHaveOneWinner(writers: Int) throws {
    _ = try NavStoreProcess.run(["append", "s", "--db", store, "--op", Self.start])
    for round in 0..<8 {
      let seq = round + 2
      let results = try runTogether(
        (0..<writers).map { writer in
          [
            "append", "s", "--db", store, "--expect-seq", String(seq), "--op",
            #"{"op":"presentSheet","screen":{"writer":\#(writer)}}"#,
          ]
        })
      #expect(results.filter { $0.status == 0 }.count == 1, "round \(round): \(results.map(\.stderr))")
      for loser in results where loser.status != 0 {
        #expect(
          loser.stderrLines == [
            "navstore: session 's': the event was to be seq \(seq), but the next seq is \(seq + 1) (seq \(seq) is already stored with other content: another writer appended first, or this is another history; re-read the session and retry)"
          ],
          "round \(round)")
      }
    }
    let history = try SessionStore(path: store, options: StoreOptions(access: .readOnly)).history(
      of: try SessionID("s"))
    #expect(history.compactMap(\.seq) == Array(1...9))
    #expect(try SessionStore(path: store).verify().allSatisfy(\.isIntact))
  }

  @Test func fourProcessesCreatingOneStoreAllSucceed() throws {
    for round in 0..<10 {
      let fresh = folder.appendingPathComponent("fresh-\(round).sqlite").path
      let results = try runTogether((0..<4).map { ["append", "w\($0)", "--db", fresh, "--op", Self.start] })
      #expect(results.allSatisfy { $0.status == 0 }, "round \(round): \(results.map(\.stderr))")
    }
  }

  @Test func writersOnDifferentSessionsLoseNothing() throws {
    let writers = 4
    _ = try runTogether((0..<writers).map { ["append", "w\($0)", "--db", store, "--op", Self.start] })
    for _ in 0..<10 {
      let results = try runTogether(
        (0..<writers).map { ["append", "w\($0)", "--db", store, "--op", #"{"op":"presentSheet","screen":"x"}"#] })
      #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.stderr))")
    }
    let sessions = try SessionStore(path: store, options: StoreOptions(access: .readOnly)).sessions()
    #expect(sessions.map(\.eventCount) == Array(repeating: 11, count: writers))
    #expect(try SessionStore(path: store).verify().allSatisfy(\.isIntact))
  }

  /// Appends without `--at` read the clock once they hold the write lock, so writers racing on
  /// one session store times in the order of their seqs (9 of 22 were out of order
  /// when the time was read before the lock).
  @Test func racingAppendsWithoutATimeAreStoredInTimeOrder() throws {
    _ = try NavStoreProcess.run(["append", "s", "--db", store, "--op", Self.start])
    var statuses: [Int32] = []
    for _ in 0..<3 {
      let results = try runTogether(
        (0..<7).map { writer in
          ["append", "s", "--db", store, "--op", #"{"op":"presentSheet","screen":{"writer":\#(writer)}}"#]
        })
      statuses += results.map(\.status)
    }
    #expect(statuses.allSatisfy { $0 == 0 })
    let history = try SessionStore(path: store, options: StoreOptions(access: .readOnly)).history(
      of: try SessionID("s"))
    #expect(history.count == 22)
    #expect(zip(history.dropFirst(), history).allSatisfy { $0.at >= $1.at }, "\(history.map(\.at.rfc3339))")
    #expect(try SessionStore(path: store).summary(of: SessionID("s")).clockJumps == 0)
  }
}
