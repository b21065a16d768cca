import Foundation
import NavTestSupport
import Testing

/// A collector's store failing under it, as a drill: the disk fills while devices upload (every
/// file `navstore serve` writes is held under a size limit, so SQLite's writes fail with
/// `EFBIG`, as on a full disk). Refusals are 503 with `Retry-After`; no acknowledged line is
/// lost; the store verifies; once the fault ends (the collector started again with room), it
/// serves within seconds and the devices' resends complete the store with nothing stored twice.
/// The collector killed under load, PostgreSQL stopped and started, and connections cut
/// mid-body are the drills of `CollectorDrillTests`, `PostgresFleetTests` and
/// `HostileClientTests`.
@Suite(.waitsOnProcesses) struct CollectorFaultDrillTests: CollectorSuite {
  let folder: TemporaryFolder

  init() throws {
    folder = try TemporaryFolder()
  }

  /// The clients' uploads (`DrillUploads`), waited for: their refusals.
  private func upload(_ clients: [[String]], to url: String, token: String, acknowledged: Acknowledged) -> Refusals {
    let refusals = Refusals()
    DrillUploads.start(clients, to: url, token: token, acknowledged: acknowledged, refusals: refusals).wait()
    return refusals
  }

  private func storedKeys() throws -> Set<String> {
    let stored = try navstore([
      "export", "--table", "events", "--format", "csv", "--db", "collector.sqlite", "--app", "drill",
    ])
    return Set(
      stored.stdout.split(whereSeparator: \.isNewline).dropFirst().map {
        $0.split(separator: ",").prefix(2).joined(separator: ",")
      })
  }

  @Test func aDiskThatFillsUnderUploadsLosesNothingAcknowledgedAndServesAgainOnceItHasRoom() throws {
    let ingest = try token("ingest")
    let clients = (0..<4).map { SessionLines.make(prefix: "disk-\($0)", sessions: 20, events: 100) }
    let options = ["--rate", "10000", "--burst", "10000"]
    let acknowledged = Acknowledged()

    // 1 MiB a file: the store takes a few of the 8,000 lines' batches, then its writes fail.
    let full = try CollectorProcess(
      db: "collector.sqlite", in: folder.url, options: options, fileSizeLimitKiB: 1_024)
    try #require(full.url.hasPrefix("http://127.0.0.1:"), "serve did not start under the limit")
    let refusals = upload(clients, to: full.url, token: ingest, acknowledged: acknowledged)
    #expect(full.stop(SIGTERM) == 0)

    #expect(!acknowledged.keys.isEmpty, "the store took nothing before its disk filled")
    #expect(refusals.statuses == [503], "a full disk is a 503, not \(refusals.statuses)")
    #expect(refusals.withoutRetryAfter == 0, "every 503 says when to come back")
    let afterFault = try storedKeys()
    let lost = acknowledged.keys.subtracting(afterFault)
    #expect(lost.isEmpty, "\(lost.count) acknowledged lines lost, like \(lost.sorted().prefix(3))")
    #expect(try navstore(["verify", "--db", "collector.sqlite", "--app", "drill"]).status == 0)

    // The fault ends: the collector is started again with room, and the devices send it all again.
    let restarted = ContinuousClock.now
    let again = try serve(options)
    let first = try DrillHTTP.post(
      again.url + "/v1/events", token: ingest, body: Data(clients[0].prefix(50).joined(separator: "\n").utf8))
    let served = ContinuousClock.now - restarted
    #expect(first.status == 200)
    #expect(served < .seconds(10), "the collector served again \(served) after the fault ended")
    let resent = upload(clients, to: again.url, token: ingest, acknowledged: acknowledged)
    #expect(resent.statuses.isEmpty, "with room, every resend is taken: \(resent.statuses)")
    #expect(again.stop(SIGTERM) == 0)

    // Nothing twice: the store is what a local import of the same lines makes.
    try clients.joined().joined(separator: "\n").write(
      toFile: folder.path("all.jsonl"), atomically: false, encoding: .utf8)
    #expect(try navstore(["import", folder.path("all.jsonl"), "--db", "local.sqlite"]).status == 0)
    let local = try navstore(["export", "--table", "events", "--format", "csv", "--db", "local.sqlite"])
    let collected = try navstore([
      "export", "--table", "events", "--format", "csv", "--db", "collector.sqlite", "--app", "drill",
    ])
    #expect(
      withoutReceived(csv: collected.stdout) == withoutReceived(csv: local.stdout),
      "the resends completed the store, each line once")
    #expect(try navstore(["verify", "--db", "collector.sqlite", "--app", "drill"]).status == 0)
  }
}

/// The answers that were not 200, and how many of the 429s and 503s lacked a `Retry-After`.
final class Refusals: @unchecked Sendable {
  private let lock = NSLock()
  private var seen: Set<Int> = []
  private var missing = 0

  var statuses: Set<Int> { lock.withLock { seen } }
  var withoutRetryAfter: Int { lock.withLock { missing } }

  func add(status: Int, retryAfter: String?) {
    lock.withLock {
      seen.insert(status)
      if (status == 429 || status == 503) && retryAfter == nil { missing += 1 }
    }
  }
}
