import Foundation
import NavPersistence
import NavTestSupport
import Testing

/// The uploader as an app runs it, against `navstore serve` on loopback: a month's backlog, a
/// collector killed and restarted again and again, an app killed mid-upload and launched
/// again, and a network that drops requests mid-body or answers too late. Each ends with the
/// collector's events equal to the device's, and both stores verifying.
@Suite(.waitsOnProcesses) struct UploaderDrillTests: CollectorSuite {
  let folder: TemporaryFolder

  init() throws {
    folder = try TemporaryFolder()
  }

  /// `device.sqlite` (or `store`) holding `sessions` sessions of `events` events each.
  func makeDevice(_ store: String = "device.sqlite", prefix: String, sessions: Int, events: Int) throws {
    let file = folder.path("\(prefix).jsonl")
    try SessionLines.make(prefix: prefix, sessions: sessions, events: events).joined(separator: "\n")
      .write(toFile: file, atomically: false, encoding: .utf8)
    let imported = try navstore(["import", file, "--db", store])
    try #require(imported.status == 0, "\(imported.stderr)")
  }

  func uploader(
    _ store: String = "device.sqlite", to url: String, token: String, _ options: [String] = []
  ) throws -> UploadDrillProcess {
    try UploadDrillProcess(store: store, collector: url, token: token, options: options, in: folder.url)
  }

  /// The events export of `arguments`' store, as CSV, without its `received` column.
  func events(_ arguments: [String]) throws -> String {
    let export = try navstore(["export", "--table", "events", "--format", "csv"] + arguments)
    #expect(export.status == 0, "\(export.stderr)")
    // The collector received the events in other writes than the device stored them.
    return String(decoding: withoutReceived(csv: Array(export.stdout.utf8)), as: UTF8.self)
  }

  /// The collector holds exactly the device's events, no more, no fewer, none twice, and both
  /// stores verify.
  func expectCollectorEqualsDevice(_ device: String = "device.sqlite", comment: String = "") throws {
    let collected = try events(["--db", "collector.sqlite", "--app", "drill"])
    let held = try events(["--db", device])
    // Compared as line sets too, so that a failure names what differs instead of printing both.
    let collectedLines = collected.split(whereSeparator: \.isNewline)
    let heldLines = held.split(whereSeparator: \.isNewline)
    let missing = Set(heldLines).subtracting(collectedLines)
    let extra = Set(collectedLines).subtracting(heldLines)
    let same = collectedLines == heldLines
    #expect(
      same,
      "\(comment): the collector holds \(collectedLines.count) rows, the device \(heldLines.count); \(missing.count) missing, like \(missing.sorted().prefix(2)); \(extra.count) not the device's, like \(extra.sorted().prefix(2))"
    )
    #expect(try navstore(["verify", "--db", "collector.sqlite", "--app", "drill"]).status == 0, "\(comment)")
    #expect(try navstore(["verify", "--db", device]).status == 0, "\(comment)")
  }

  /// The events of the device the collector has acknowledged, read from its upload progress.
  func acknowledgedEvents(_ device: String = "device.sqlite") throws -> Int {
    let store = try SessionStore(path: folder.path(device))
    let pending = try store.pendingUploads()
    return try store.sessions().reduce(0) { $0 + $1.eventCount } - pending.events
  }

  /// A month offline: 40,000 events of 400 sessions go in one launch, arrive whole and verify.
  /// The uploader's peak memory with that backlog stays within 16 MiB of its peak with a
  /// backlog of 1,000 events: it reads a batch at a time, whatever waits (a backlog read whole
  /// would hold each of the 40,000 events, tens of MiB).
  @Test func aBacklogOf40000EventsArrivesWholeInBoundedMemory() throws {
    try makeDevice("small.sqlite", prefix: "small", sessions: 10, events: 100)
    try makeDevice(prefix: "month", sessions: 400, events: 100)
    let ingest = try token()
    let server = try CollectorProcess(db: "collector.sqlite", in: folder.url)
    let small = try uploader("small.sqlite", to: server.url, token: try token(app: "baseline")).finish(within: 120)
    let large = try uploader(to: server.url, token: ingest)
    #expect(large.firstLine == "uploading 40000 events of 400 sessions")
    let finished = large.finish(within: 600)
    #expect(finished.status == 0 && finished.said.hasPrefix("done: 40000 events sent"), "\(finished.said)")
    #expect(server.stop(SIGTERM) == 0)
    try expectCollectorEqualsDevice()
    let smallPeak = try #require(UploadDrillProcess.peakKiB(in: small.said))
    let largePeak = try #require(UploadDrillProcess.peakKiB(in: finished.said))
    #expect(largePeak - smallPeak < 16 * 1_024, "peak \(smallPeak) KiB for 1,000 events, \(largePeak) KiB for 40,000")
  }

  /// The collector is killed (SIGKILL) and restarted on the same port 20 times, at random
  /// moments, while one launch uploads through its background loop: the loop waits each outage
  /// out with its backoff, nothing is lost, nothing is stored twice, and the chains verify.
  ///
  /// Each kill comes at a random moment after the upload has moved since the restart before
  /// it, not after a fixed wait: on a loaded machine a collector's start and the uploader's
  /// backoff can outlast any fixed window, and twenty kills of a collector that never answered
  /// would test nothing.
  @Test func aCollectorKilledTwentyTimesCostsNothing() throws {
    try makeDevice(prefix: "outage", sessions: 400, events: 60)
    let ingest = try token()
    var server = try CollectorProcess(db: "collector.sqlite", in: folder.url)
    let port = server.port
    let upload = try uploader(
      to: server.url, token: ingest, ["--batch", "100", "--backoff-ms", "200", "--background"])
    var random = SeededRandom(seed: 32)
    var killedWhileUploading = 0
    var acknowledgedAtKills: [Int] = []
    for _ in 0..<20 {
      let before = acknowledgedAtKills.last ?? 0
      let deadline = ContinuousClock.now + .seconds(120)
      while try acknowledgedEvents() == before, upload.process.isRunning, ContinuousClock.now < deadline {
        Thread.sleep(forTimeInterval: 0.01)
      }
      try #require(try acknowledgedEvents() > before, "no upload was acknowledged in 2 minutes after a restart")
      Thread.sleep(forTimeInterval: Double(random.next() % 60) / 1_000)
      if upload.process.isRunning { killedWhileUploading += 1 }
      _ = server.stop(SIGKILL)
      acknowledgedAtKills.append(try acknowledgedEvents())
      server = try CollectorProcess(db: "collector.sqlite", in: folder.url, port: port)
      try #require(server.port == port, "the collector could not listen on its port again")
    }
    let finished = upload.finish(within: 300)
    #expect(finished.status == 0 && finished.said.hasPrefix("done: 24000 events sent"), "\(finished.said)")
    // Every kill found events still to send.
    #expect(killedWhileUploading == 20, "only \(killedWhileUploading) kills found the upload running")
    #expect(acknowledgedAtKills.allSatisfy { $0 < 24_000 }, "a kill came after the last event: \(acknowledgedAtKills)")
    #expect(server.stop(SIGTERM) == 0)
    try expectCollectorEqualsDevice(comment: "after the kills at \(acknowledgedAtKills) acknowledged events")
  }

  /// The app (the uploader's process) is killed at random moments 20 times, each time while it
  /// uploads, and launched again: each launch goes on from what the collector acknowledged,
  /// and the last one finishes with the collector equal to the device.
  @Test func anAppKilledTwentyTimesMidUploadLosesNothing() throws {
    try makeDevice(prefix: "crash", sessions: 300, events: 80)
    let ingest = try token()
    let server = try CollectorProcess(db: "collector.sqlite", in: folder.url)
    var random = SeededRandom(seed: 33)
    var acknowledged: [Int] = []
    for _ in 0..<20 {
      let launch = try uploader(to: server.url, token: ingest, ["--batch", "100"])
      Thread.sleep(forTimeInterval: Double(random.next() % 150 + 20) / 1_000)
      #expect(launch.process.isRunning, "a launch finished before it was killed")
      launch.kill()
      acknowledged.append(try acknowledgedEvents())
    }
    // The launches made progress, and none had finished when it was killed.
    #expect(acknowledged.last ?? 0 < 24_000, "every event was sent before the last kill: \(acknowledged)")
    #expect(acknowledged.first ?? 0 < acknowledged.last ?? 0, "the launches sent nothing: \(acknowledged)")
    let last = try uploader(to: server.url, token: ingest).finish(within: 300)
    #expect(last.status == 0, "\(last.said)")
    #expect(server.stop(SIGTERM) == 0)
    try expectCollectorEqualsDevice(comment: "after kills at \(acknowledged) acknowledged events")
  }

  /// Between the app and the collector, a proxy drops some requests part way through their
  /// body and holds some answers past the uploader's 1 s timeout (the collector stored those
  /// batches; the uploader cannot know): the resends cost duplicates, nothing else.
  @Test func aNetworkThatDropsRequestsOrAnswersLateCostsNothing() throws {
    try makeDevice(prefix: "flaky", sessions: 20, events: 100)
    let ingest = try token()
    let server = try CollectorProcess(db: "collector.sqlite", in: folder.url)
    let pattern: [FaultyProxy.Fault] = [
      .cutRequest(afterBytes: 600), .holdAnswer(seconds: 2.5), .none, .cutRequest(afterBytes: 2_000), .none,
      .holdAnswer(seconds: 2.5), .none,
    ]
    let proxy = try FaultyProxy(upstream: server.port) { pattern[$0 % pattern.count] }
    let finished = try uploader(
      to: "http://127.0.0.1:\(proxy.port)", token: ingest, ["--batch", "250", "--timeout-ms", "1000"]
    ).finish(within: 300)
    #expect(finished.status == 0 && finished.said.hasPrefix("done: 2000 events sent"), "\(finished.said)")
    let applied = proxy.applied
    #expect(applied.filter { if case .cutRequest = $0 { true } else { false } }.count >= 2, "\(applied)")
    #expect(applied.filter { if case .holdAnswer = $0 { true } else { false } }.count >= 2, "\(applied)")
    proxy.stop()
    #expect(server.stop(SIGTERM) == 0)
    try expectCollectorEqualsDevice()
  }

  /// A collector that allows one request a second answers the rest 429 with `Retry-After`: the
  /// uploader waits as long as asked before each resend (five batches take at least four
  /// seconds), and nothing is lost or refused.
  @Test func aRateLimitedCollectorIsWaitedOutAsItAsks() throws {
    try makeDevice(prefix: "paced", sessions: 5, events: 10)
    let ingest = try token()
    let log = folder.path("serve.log")
    let server = try CollectorProcess(
      db: "collector.sqlite", in: folder.url, options: ["--rate", "1", "--burst", "1"], log: log)
    let started = ContinuousClock.now
    let finished = try uploader(to: server.url, token: ingest, ["--batch", "10"]).finish(within: 120)
    let elapsed = ContinuousClock.now - started
    #expect(finished.status == 0 && finished.said.hasPrefix("done: 50 events sent"), "\(finished.said)")
    #expect(server.stop(SIGTERM) == 0)
    let answered = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
      .filter { $0.contains("route=/v1/events") }
    #expect(answered.filter { $0.contains("status=200") }.count == 5, "\(answered)")
    // Waiting as asked, a batch meets at most one 429: the first goes at once, each other one
    // is refused once and goes a second later. A client that resent sooner would meet more.
    let refused = answered.filter { $0.contains("status=429") }.count
    #expect(refused >= 1 && refused <= 4, "\(refused) answers of 429: \(answered)")
    #expect(elapsed >= .seconds(4), "five batches at one a second went in \(elapsed)")
    try expectCollectorEqualsDevice()
  }
}
