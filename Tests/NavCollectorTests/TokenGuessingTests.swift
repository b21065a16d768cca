import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NavFleet
import NavTestSupport
import Testing

@testable import NavCollector

/// Tokens guessed in a loop: past an address's rate of tokens that are none, its requests are 429
/// with `Retry-After` without a look at the store (a good token too, until the bucket refills),
/// at the API and at the console's sign-in alike; other addresses are not held back; and a wrong
/// secret of a real token costs what an unknown token costs, as far as the time of a request tells.
@Suite struct TokenGuessingTests {
  let folder: TemporaryFolder
  let fleet: SQLiteFleet
  let reader: String

  init() throws {
    folder = try TemporaryFolder()
    fleet = try SQLiteFleet(path: folder.path("collector.sqlite"))
    reader = try fleet.createToken(app: AppName("shop"), role: .read).text
  }

  /// A token of the right shape that is none of the store's.
  static func unknown(_ index: Int) -> String {
    let id = String(format: "%016x", 0x1000 + index)
    return "nvs_\(id)_" + String(repeating: "a", count: 64)
  }

  /// The reader's id with another secret.
  func wrongSecret(_ index: Int) -> String {
    let id = reader.split(separator: "_")[1]
    return "nvs_\(id)_" + String(format: "%064x", index)
  }

  @Test func guessesPastTheRateAre429WithoutALookAtTheStore() async throws {
    var configuration = CollectorConfiguration()
    // A bucket that does not refill while the test runs, however slow the machine.
    configuration.guessRate = RequestRate(perSecond: 0.0001, burst: 5)
    let application = Application(router: Collector.router(fleet: fleet, configuration: configuration))
    try await application.test(.router) { client in
      func get(_ token: String) async throws -> (HTTPResponse.Status, String?) {
        try await client.execute(uri: "/v1/sessions", method: .get, headers: [.authorization: "Bearer \(token)"]) {
          ($0.status, $0.headers[.retryAfter])
        }
      }
      for index in 0..<5 { #expect(try await get(Self.unknown(index)).0 == .unauthorized) }
      let refused = try await get(Self.unknown(5))
      #expect(refused.0 == .tooManyRequests && refused.1.flatMap { Int($0) }.map { $0 >= 9_000 } == true)
      // The address is held back, good token or not, and so is its console sign-in.
      #expect(try await get(reader).0 == .tooManyRequests)
      try await client.execute(
        uri: "/console/sign-in", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
        body: ByteBuffer(string: "token=" + reader)
      ) { #expect($0.status == .tooManyRequests) }
      // A request without a token is a 401 as ever: nothing to guess with.
      try await client.execute(uri: "/v1/sessions", method: .get) { #expect($0.status == .unauthorized) }
    }
  }

  /// The bucket refills at its rate: one try a second once the burst is spent.
  @Test func aSpentBucketTakesATryAgainOnceItRefilled() {
    let buckets = TokenBuckets(rate: RequestRate(perSecond: 1, burst: 3))
    let start = ContinuousClock.now
    for _ in 0..<3 { #expect(buckets.take("a", now: start) == nil) }
    let wait = buckets.wait("a", now: start)
    #expect(wait.map { abs($0 - 1) < 0.001 } == true)
    #expect(buckets.wait("a", now: start + .milliseconds(500)).map { abs($0 - 0.5) < 0.001 } == true)
    #expect(buckets.wait("a", now: start + .milliseconds(1_001)) == nil)
    #expect(buckets.wait("b", now: start) == nil)
  }

  @Test func eachAddressHasItsOwnBucketAndAGoodTokenSpendsNothing() {
    let limit = GuessLimit(rate: RequestRate(perSecond: 0.001, burst: 2), metrics: CollectorMetrics())
    limit.noteNone("192.0.2.1")
    limit.noteNone("192.0.2.1")
    #expect(throws: CollectorError.self) { try limit.check("192.0.2.1") }
    #expect(throws: Never.self) { try limit.check("192.0.2.2") }
    #expect(throws: Never.self) { try limit.check("2001:db8::1") }
  }

  /// The time of a request does not tell a real token's id with a wrong secret from an unknown
  /// id: both are one lookup by id, and the secret's hash is compared in constant time. Pairs
  /// are interleaved and the medians compared, with room for a busy machine's noise.
  @Test func aWrongSecretTakesAsLongAsAnUnknownToken() async throws {
    var configuration = CollectorConfiguration()
    configuration.guessRate = RequestRate(perSecond: 1_000_000, burst: 1_000_000)
    configuration.clientRate = RequestRate(perSecond: 1_000_000, burst: 1_000_000)
    let application = Application(router: Collector.router(fleet: fleet, configuration: configuration))
    try await application.test(.router) { client in
      func time(_ token: String) async throws -> Duration {
        let started = ContinuousClock.now
        try await client.execute(uri: "/v1/limits", method: .get, headers: [.authorization: "Bearer \(token)"]) {
          #expect($0.status == .unauthorized)
        }
        return ContinuousClock.now - started
      }
      // Warm up both paths.
      for index in 0..<50 {
        _ = try await time(wrongSecret(index))
        _ = try await time(Self.unknown(index))
      }
      var wrong: [Duration] = []
      var unknown: [Duration] = []
      for index in 0..<400 {
        if index.isMultiple(of: 2) {
          wrong.append(try await time(wrongSecret(index)))
          unknown.append(try await time(Self.unknown(index)))
        } else {
          unknown.append(try await time(Self.unknown(index)))
          wrong.append(try await time(wrongSecret(index)))
        }
      }
      let (wrongMedian, unknownMedian) = (wrong.sorted()[200], unknown.sorted()[200])
      let difference = abs((wrongMedian - unknownMedian) / .microseconds(1))
      let larger = max(wrongMedian, unknownMedian) / .microseconds(1)
      #expect(
        difference <= max(0.25 * larger, 50), "wrong secret \(wrongMedian), unknown token \(unknownMedian) (medians)")
    }
  }
}
