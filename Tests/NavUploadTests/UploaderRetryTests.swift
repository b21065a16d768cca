import Foundation
import Hummingbird
import HummingbirdTesting
import NavCore
import NavFleet
import NavPersistence
import NavTestSupport
import NavUpload
import Testing

/// The uploader against a stand-in collector that answers as the test says: a 503 with
/// `Retry-After: 2` is retried no sooner than 2 s later, and two flushes at once send each
/// batch once.
@Suite struct UploaderRetryTests {
  let folder: TemporaryFolder
  let device: SessionStore

  init() throws {
    folder = try TemporaryFolder()
    device = try SessionStore(path: folder.path("device.sqlite"))
    _ = try device.ingest(SessionLines.bytes(prefix: "s", sessions: 1, events: 5))
  }

  /// When each upload arrived, on the test's clock.
  final class Arrivals: Sendable {
    private let times = Protected<[ContinuousClock.Instant]>([])
    /// Notes an arrival; how many there were with it.
    func note() -> Int {
      times.withLock {
        $0.append(.now)
        return $0.count
      }
    }
    var all: [ContinuousClock.Instant] { times.withLock { $0 } }
  }

  /// A 200's body for a collector that stored the device's five events.
  static let stored = #"{"accepted":5,"duplicates":0,"rejected":[],"heads":{"s-0":{"seq":5,"hash":null}}}"#

  /// Runs `body` against a stand-in that answers the first upload with `first` (when given),
  /// then every upload with a 200 and `answer`.
  func withStandIn(
    firstAnswer first: HTTPResponse.Status?, answer: String = Self.stored,
    _ body: @Sendable (URL, Arrivals) async throws -> Void
  ) async throws {
    let arrivals = Arrivals()
    let router = Router()
    router.post("v1/events") { request, _ -> Response in
      let number = arrivals.note()
      _ = try await request.body.collect(upTo: 1 << 20)
      if number == 1, let first {
        return Response(
          status: first, headers: [.retryAfter: "2", .contentType: "application/json"],
          body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"error":"unavailable","message":"later"}"#)))
      }
      // Slow enough that a second flush arrives while this one is under way.
      try await Task.sleep(for: .milliseconds(200))
      return Response(
        status: .ok, headers: [.contentType: "application/json"],
        body: ResponseBody(byteBuffer: ByteBuffer(string: answer)))
    }
    let app = Application(
      router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)))
    try await app.test(.live) { client in
      let port = try #require(client.port)
      try await body(try #require(URL(string: "http://127.0.0.1:\(port)")), arrivals)
    }
  }

  /// A 503 with `Retry-After: 2`: `flush()` does not wait it out but says when the uploader
  /// will try again, and the background loop sends again no sooner than that.
  @Test func aRetryAfterIsReturnedAtOnceAndTheLoopWaitsItOut() async throws {
    let device = self.device
    try await withStandIn(firstAnswer: .serviceUnavailable) { url, arrivals in
      let uploader = NavigationUploader(store: device, collector: url, token: "nvs_0_0")
      #expect(await uploader.flush() == .willRetry(after: .seconds(2)))
      #expect(arrivals.all.count == 1, "flush sent once and did not wait")
      await uploader.start()
      var sent = false
      for _ in 0..<200 where !sent {
        try await Task.sleep(for: .milliseconds(100))
        sent = try await device.pendingUploads().events == 0
      }
      await uploader.stop()
      let times = arrivals.all
      try #require(sent && times.count == 2)
      #expect(times[1] - times[0] >= .seconds(2), "retried after \(times[1] - times[0])")
    }
  }

  /// A collector that asks for an hour is taken at its word up to `maximumBackoff` only, and a
  /// collector that never answers cannot hold `flush(within:)` past its limit: nothing is
  /// acknowledged, nothing lost.
  @Test func aFlushWithinALimitReturnsInTimeWhateverTheCollectorDoes() async throws {
    let device = self.device
    let arrivals = Arrivals()
    let router = Router()
    router.post("v1/events") { request, _ -> Response in
      _ = try await request.body.collect(upTo: 1 << 20)
      if arrivals.note() == 1 {
        return Response(status: .serviceUnavailable, headers: [.retryAfter: "3600"])
      }
      try await Task.sleep(for: .seconds(8))  // a collector that hangs (longer than the limit)
      return Response(status: .ok)
    }
    let app = Application(
      router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)))
    try await app.test(.live) { client in
      let port = try #require(client.port)
      let url = try #require(URL(string: "http://127.0.0.1:\(port)"))
      let uploader = NavigationUploader(
        store: device, collector: url, token: "nvs_0_0",
        configuration: UploadConfiguration(maximumBackoff: .seconds(300)))
      #expect(await uploader.flush(within: .seconds(5)) == .willRetry(after: .seconds(300)), "Retry-After capped")
      #expect(await uploader.flush(within: .milliseconds(500)) == .deadlineReached)
      #expect(arrivals.all.count == 2)
    }
    #expect(try await device.pendingUploads().events == 5)
    #expect(try await device.uploadQueue(limit: 10).first?.acknowledgedSeq == 0)
  }

  @Test func twoFlushesAtOnceSendTheBatchOnce() async throws {
    let device = self.device
    try await withStandIn(firstAnswer: nil) { url, arrivals in
      let uploader = NavigationUploader(store: device, collector: url, token: "nvs_0_0")
      async let first = uploader.flush()
      async let second = uploader.flush()
      let outcomes = await [first, second]
      #expect(outcomes == [.done, .done])
      #expect(arrivals.all.count == 1)
    }
  }

  @Test func anAnswerThatAcknowledgesNothingIsNotSentAgainAndAgain() async throws {
    let device = self.device
    let nothing = #"{"accepted":0,"duplicates":0,"rejected":[],"heads":{}}"#
    try await withStandIn(firstAnswer: nil, answer: nothing) { url, arrivals in
      let uploader = NavigationUploader(store: device, collector: url, token: "nvs_0_0")
      #expect(await uploader.flush().isWillRetry)
      #expect(arrivals.all.count == 1)
      var problems = uploader.problems.makeAsyncIterator()
      let problem = await problems.next()
      #expect(problem == .nothingAcknowledged)
      #expect(problem?.description == "the collector acknowledged none of the batch; it will be sent again")
    }
    #expect(try await device.pendingUploads().events == 5)
  }
}
