import Foundation
import NavTestSupport
import Testing

/// A disk that fails a write: `navstore import` under a file-size limit (`ulimit -f`, with the
/// signal that would kill it ignored) gets `EFBIG` from the kernel once the store's WAL passes
/// the limit, which SQLite reports as a disk I/O error. The command says so in one sentence,
/// and the store keeps nothing of the transaction.
@Suite(.waitsOnProcesses) struct DiskFailureTests {
  @Test func aFailedWriteIsOneSentenceAboutTheDiskAndKeepsNothing() throws {
    let temporary = try TemporaryFolder()
    defer { withExtendedLifetime(temporary) {} }  // removed when the test ends
    let folder = temporary.url
    let input = folder.appendingPathComponent("in.jsonl").path
    let store = folder.appendingPathComponent("limited.sqlite").path
    try writeOneEventSessions(20_000, to: input)
    // The store exists before the import (a failed import that created it would remove it).
    #expect(try NavStoreProcess.run(["init", "--db", store]).status == 0)

    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    // 400 KiB: the new store fits, the import's 20,000 sessions do not.
    process.arguments = [
      "-c", "trap '' XFSZ; ulimit -f 400; exec \"$0\" import --db \"$1\" \"$2\"", NavStoreProcess.binary.path, store,
      input,
    ]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()

    #expect(process.terminationStatus == 1)
    #expect(stderr.split(separator: "\n").count == 1, "\(stderr)")
    #expect(
      stderr.hasPrefix(
        "navstore: the disk failed while writing '\(store)' (SQLite error 778); nothing of the transaction was kept"),
      "\(stderr)")
    let verify = try NavStoreProcess.run(["verify", "--db", store])
    #expect(verify.status == 0)
    #expect(verify.stdout == "verified 0 sessions, 0 events: 0 problems (the store has no sessions yet)\n")
  }
}
