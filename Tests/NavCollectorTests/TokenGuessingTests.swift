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

  /// A wrong secret of a real token's id is refused as an unknown id is: the same status,
  /// headers and body, so that only the time could tell them apart, and the time does not
  /// either by construction (both are one lookup by id, then the presented secret is hashed and
  /// compared in constant time, against 32 zero bytes for an unknown id). A test that timed the
  /// two had failed on a busy machine by 2 ms in 7; time is measured, never asserted.
  @Test func aWrongSecretIsRefusedAsAnUnknownTokenIs() async throws {
    var configuration = CollectorConfiguration()
    configuration.guessRate = RequestRate(perSecond: 1_000_000, burst: 1_000_000)
    configuration.clientRate = RequestRate(perSecond: 1_000_000, burst: 1_000_000)
    let application = Application(router: Collector.router(fleet: fleet, configuration: configuration))
    try await application.test(.router) { client in
      func refusal(_ token: String) async throws -> String {
        try await client.execute(uri: "/v1/limits", method: .get, headers: [.authorization: "Bearer \(token)"]) {
          response in
          #expect(response.status == .unauthorized)
          // Each answer names its own request: the same wherever it appears.
          let id = response.headers[.requestID] ?? "-"
          let headers = response.headers.filter { $0.name != .date }.map { "\($0.name): \($0.value)" }.sorted()
          return "\(response.status.code) \(headers) \(String(buffer: response.body))".replacingOccurrences(
            of: id, with: "ID")
        }
      }
      for index in 0..<20 {
        let wrong = try await refusal(wrongSecret(index))
        let unknown = try await refusal(Self.unknown(index))
        #expect(wrong == unknown)
      }
    }
    // The comparison reads every byte whatever they hold: equal and unequal in any place.
    let zeros = [UInt8](repeating: 0, count: 32)
    #expect(PresentedToken.constantTimeEqual(zeros, zeros))
    for place in zeros.indices {
      var other = zeros
      other[place] = 1
      #expect(!PresentedToken.constantTimeEqual(zeros, other), "a difference at byte \(place)")
    }
    #expect(!PresentedToken.constantTimeEqual(zeros, Array(zeros.dropLast())))
  }
}
