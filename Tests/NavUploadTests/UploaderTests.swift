import Foundation
import Hummingbird
import HummingbirdTesting
import NavCollector
import NavContract
import NavCore
import NavFleet
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import NavUpload
import Testing

/// `NavigationUploader` against a live collector on loopback: a backlog arrives whole and
/// verifies, a rejected line holds only its session, a refused token stops and keeps
/// everything, a batch too large is split, and a collector out of reach costs nothing.
@Suite struct UploaderTests {
  let folder: TemporaryFolder
  let device: SessionStore
  let collector: SQLiteFleet
  let token: String

  init() throws {
    folder = try TemporaryFolder()
    device = try SessionStore(path: folder.path("device.sqlite"))
    collector = try SQLiteFleet(path: folder.path("collector.sqlite"))
    token = try collector.createToken(app: AppName("shop"), role: .ingest).text
  }

  /// Runs `body` with the address of a live collector over `collector`.
  func withCollector(
    limits: UploadLimits = .contract, _ body: @Sendable (URL) async throws -> Void
  ) async throws {
    var configuration = CollectorConfiguration(port: 0)
    configuration.limits = limits
    let app = Application(router: Collector.router(fleet: collector, configuration: configuration))
    try await app.test(.live) { client in
      let port = try #require(client.port)
      try await body(try #require(URL(string: "http://127.0.0.1:\(port)")))
    }
  }

  /// A flush, and another after each answer to come back later, up to ten: the last one's
  /// outcome. A collector on a loaded machine may shed a request (503 with `Retry-After`), which
  /// an app's upload loop waits out; what these tests check comes after it.
  static func flushed(_ uploader: NavigationUploader) async -> FlushOutcome {
    var outcome = await uploader.flush()
    for _ in 1..<10 {
      guard case .willRetry(let wait) = outcome else { break }
      try? await Task.sleep(for: min(wait, .seconds(2)))
      outcome = await uploader.flush()
    }
    return outcome
  }

  /// The next problem the uploader reports that is not a collector asking to wait (`busy`),
  /// among the next ten.
  static func nextProblem(_ problems: inout AsyncStream<UploadProblem>.Iterator) async -> UploadProblem? {
    for _ in 0..<10 {
      guard let problem = await problems.next() else { return nil }
      if case .busy = problem { continue }
      return problem
    }
    return nil
  }

  /// Uploads everything the device holds to a live collector under `configuration`, in one
  /// flush that leaves nothing waiting.
  func uploadEverything(_ configuration: UploadConfiguration) async throws {
    let device = self.device
    let token = self.token
    try await withCollector { url in
      let uploader = NavigationUploader(store: device, collector: url, token: token, configuration: configuration)
      #expect(await Self.flushed(uploader) == .done)
    }
  }

  /// The events of `store` as CSV: what the two stores must agree on.
  static func events(_ store: SessionStore, format: ExportFormat = .csv) throws -> [UInt8] {
    var bytes: [UInt8] = []
    try store.exportEncoded(.events, format: format) { bytes += $0 }
    return format == .csv ? withoutReceived(csv: bytes) : bytes
  }

  @Test func aBacklogArrivesWholeAndVerifies() async throws {
    #expect(try await device.ingest(SessionLines.bytes(prefix: "s", sessions: 30, events: 70)).accepted == 2_100)
    let device = self.device
    let token = self.token
    try await withCollector { url in
      let uploader = NavigationUploader(
        store: device, collector: url, token: token, configuration: UploadConfiguration(batchEvents: 500))
      let before = try await uploader.pending()
      #expect(before == PendingUploads(sessions: 30, events: 2_100, heldSessions: 0))
      #expect(await Self.flushed(uploader) == .done)
      let after = try await uploader.pending()
      #expect(after == PendingUploads(sessions: 0, events: 0, heldSessions: 0))
      // Again: nothing waits, nothing is sent.
      #expect(await Self.flushed(uploader) == .done)
    }
    let shop = try collector.store(of: AppName("shop"))
    #expect(try Self.events(shop) == Self.events(device))
    #expect(try await shop.read { try $0.verify() }.allSatisfy(\.isIntact))
    #expect(try await device.uploadProgress(of: sessionID("s-7")).acknowledgedSeq == 70)
  }

  /// Sessions the recorder starts name the device's key; the uploader signs with it, so they
  /// arrive whole, and a second device holding the same token cannot extend them.
  @Test func recordedSessionsAreSignedAndOnlyTheirDeviceExtendsThem() async throws {
    let recorder = NavigationRecorder<JSONValue>(store: device, session: sessionID("recorded"))
    recorder.record(.stack([.root("home", withNavigation: true)]))
    recorder.record(.stack([.root("home", withNavigation: true), .push("detail")]))
    try await recorder.flush()
    let key = try #require(try device.deviceKey())
    #expect(try await device.read { try $0.summary(of: sessionID("recorded")) }.context?.deviceKey == key)
    let device = self.device
    let token = self.token
    try await withCollector { url in
      let uploader = NavigationUploader(store: device, collector: url, token: token)
      #expect(await Self.flushed(uploader) == .done)
      // Another device, with the app's token, appends to the session: refused line by line.
      let forged =
        #"{"session":"recorded","seq":3,"at":"2026-11-21T10:00:00.000Z","op":{"op":"push","screen":"forged"}}"#
      let intruder = CollectorClient(base: url, token: token)
      for signer in [DeviceSigner.generated(), nil] {
        let answer = try await intruder.upload([forged], signedBy: signer)
        #expect(answer.accepted == 0 && answer.rejected.map(\.rejection.reason) == [.wrongDevice])
      }
    }
    let shop = try collector.store(of: AppName("shop"))
    #expect(try await shop.read { try $0.summary(of: sessionID("recorded")) }.eventCount == 2)
    #expect(try Self.events(shop) == Self.events(device))
  }

  @Test func aRejectedLineHoldsItsSessionAndTheOthersGoOn() async throws {
    _ = try await device.ingest(SessionLines.bytes(prefix: "s", sessions: 3, events: 10))
    // The collector already holds another s-1: its first line is a conflict.
    _ = try await collector.store(of: AppName("shop")).ingest(
      SessionLines.bytes(prefix: "s", sessions: 2, events: 1, screen: "elsewhere").suffix(1))
    let device = self.device
    let token = self.token
    try await withCollector { url in
      let uploader = NavigationUploader(store: device, collector: url, token: token)
      #expect(await Self.flushed(uploader) == .done)
      var problems = uploader.problems.makeAsyncIterator()
      guard case .rejected(let session, let seq, let reason, _)? = await Self.nextProblem(&problems) else {
        Issue.record("no rejection reported")
        return
      }
      #expect(session == sessionID("s-1") && seq == 1 && reason == .conflict)
      // What an app sees of it, and what it can do: release it, and it is sent again.
      let holds = try await uploader.holds()
      #expect(holds.map(\.session) == [sessionID("s-1")] && holds.map(\.reason) == [.conflict])
      try await uploader.release(sessionID("s-1"))
      #expect(try await uploader.holds().isEmpty)
      #expect(try await uploader.pending().heldSessions == 0)
      // The collector's side was not put right: the line is a conflict again, and waits again.
      #expect(await Self.flushed(uploader) == .done)
      #expect(try await uploader.holds().map(\.seq) == [1])
    }
    let held = try await device.uploadProgress(of: sessionID("s-1"))
    #expect(held.acknowledgedSeq == 0 && held.hold?.seq == 1 && held.hold?.reason == .conflict)
    for other in ["s-0", "s-2"] {
      #expect(try await device.uploadProgress(of: sessionID(other)).acknowledgedSeq == 10)
    }
    #expect(try await device.pendingUploads() == PendingUploads(sessions: 1, events: 10, heldSessions: 1))
    #expect(try await device.uploadQueue(limit: 10).isEmpty, "a held session is not sent again")
  }

  @Test func aRefusedTokenStopsAndKeepsEverything() async throws {
    _ = try await device.ingest(SessionLines.bytes(prefix: "s", sessions: 2, events: 5))
    let revoked = try collector.createToken(app: AppName("shop"), role: .ingest)
    try collector.revokeToken(revoked.token.id)
    let device = self.device
    try await withCollector { url in
      let uploader = NavigationUploader(store: device, collector: url, token: revoked.text)
      #expect(await uploader.flush() == .stopped)
      var problems = uploader.problems.makeAsyncIterator()
      let problem = await problems.next()
      #expect(problem == .tokenRefused(status: 401))
      #expect(
        problem.map { "\($0)" }
          == "the collector refused the upload token (401): check that it is an ingest token of this app, not revoked, and whole; uploading stopped until start() is called"
      )
    }
    #expect(try await device.pendingUploads() == PendingUploads(sessions: 2, events: 10, heldSessions: 0))
  }

  /// A token read from a file as the guides write it (`> device.token`) ends in a line break:
  /// it is the token all the same.
  @Test func aTokenReadWithItsLineBreakUploads() async throws {
    _ = try await device.ingest(SessionLines.bytes(prefix: "s", sessions: 2, events: 5))
    let device = self.device
    let token = self.token
    try await withCollector { url in
      let uploader = NavigationUploader(store: device, collector: url, token: " \(token)\n")
      #expect(await Self.flushed(uploader) == .done)
    }
    #expect(try await device.pendingUploads() == PendingUploads(sessions: 0, events: 0, heldSessions: 0))
  }

  @Test func aBatchOverTheCollectorsLimitIsSplit() async throws {
    _ = try await device.ingest(SessionLines.bytes(prefix: "s", sessions: 4, events: 25))
    let device = self.device
    let token = self.token
    try await withCollector(limits: UploadLimits(lineBytes: 4_096, requestLines: 7, requestBytes: 1 << 20)) { url in
      let uploader = NavigationUploader(store: device, collector: url, token: token)
      #expect(await Self.flushed(uploader) == .done)
    }
    #expect(try Self.events(collector.store(of: AppName("shop"))) == Self.events(device))
  }

  /// A batch over the collector's limits is halved until it goes; one event over them on its
  /// own holds its session, as a rejected line does, and the other sessions go on.
  @Test func anEventOverTheCollectorsLimitsHoldsOnlyItsSession() async throws {
    _ = try await device.ingest(
      SessionLines.bytes(prefix: "big", sessions: 1, events: 3, screen: String(repeating: "x", count: 1_000)))
    _ = try await device.ingest(SessionLines.bytes(prefix: "s", sessions: 2, events: 5))
    let device = self.device
    let token = self.token
    try await withCollector(limits: UploadLimits(lineBytes: 600, requestLines: 5_000, requestBytes: 1 << 20)) { url in
      let uploader = NavigationUploader(store: device, collector: url, token: token)
      #expect(await Self.flushed(uploader) == .done)
      var problems = uploader.problems.makeAsyncIterator()
      guard case .rejected(let session, let seq, let reason, _)? = await Self.nextProblem(&problems) else {
        Issue.record("no rejection reported")
        return
      }
      #expect(session.rawValue == "big-0" && seq == 1 && reason == .tooLarge)
    }
    #expect(try await device.pendingUploads() == PendingUploads(sessions: 1, events: 3, heldSessions: 1))
    #expect(try await device.uploadProgress(of: sessionID("big-0")).hold?.reason == .tooLarge)
    #expect(try await device.uploadProgress(of: sessionID("s-1")).acknowledgedSeq == 5)
  }

  @Test func aCollectorOutOfReachCostsNothing() async throws {
    _ = try await device.ingest(SessionLines.bytes(prefix: "s", sessions: 2, events: 5))
    // A port nothing listens on: connections are refused at once.
    let url = try #require(URL(string: "http://127.0.0.1:9"))
    let uploader = NavigationUploader(store: device, collector: url, token: token)
    #expect(await uploader.flush().isWillRetry)
    var problems = uploader.problems.makeAsyncIterator()
    let problem = await problems.next()
    #expect(problem == .unreachable(.collectorNotFound), "a refused connection: \(String(describing: problem))")
    #expect(problem.map { "\($0)".contains("NSError") || "\($0)".contains("Domain=") } == false, "no error dump")
    #expect(try await device.pendingUploads() == PendingUploads(sessions: 2, events: 10, heldSessions: 0))
  }

  @Test func theBackgroundLoopUploadsWhatIsRecordedAfterItStarts() async throws {
    let device = self.device
    let token = self.token
    try await withCollector { url in
      let uploader = NavigationUploader(
        store: device, collector: url, token: token,
        configuration: UploadConfiguration(flushAt: 5, pollInterval: .milliseconds(50)))
      await uploader.start()
      // Recorded after the start: the loop sees five events waiting and sends them.
      _ = try await device.ingest(SessionLines.bytes(prefix: "late", sessions: 1, events: 5))
      var waiting = try await uploader.pending()
      for _ in 0..<200 where waiting.events > 0 {
        try await Task.sleep(for: .milliseconds(50))
        waiting = try await uploader.pending()
      }
      await uploader.stop()
      #expect(waiting == PendingUploads(sessions: 0, events: 0, heldSessions: 0))
    }
    #expect(try Self.events(collector.store(of: AppName("shop"))) == Self.events(device))
  }
}
