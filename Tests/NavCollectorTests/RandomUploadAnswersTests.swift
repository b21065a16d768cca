import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NavContract
@_spi(Internals) import NavCore
import NavTestSupport
import NavUpload
import PropertyBased
import Testing

@testable import NavCollector
@testable import NavFleet

/// The collector's fast paths hold to the answers of the paths they replaced, on random uploads:
/// good lines, resent ones, gaps, conflicts, unreadable lines, sessions owned by one device and
/// sent by another, and bodies whose gzip is cut. The same requests go to a collector on a SQLite
/// store and to one on PostgreSQL, and their lines straight to a third store's ingest (no HTTP,
/// no body, no token), whose outcome the contract's `Encodable` encoder writes: the old path of
/// the collector's answer, which it now writes straight into its bytes, after taking a token it
/// found valid from memory. Every answer is the same from all three, byte for byte, and the
/// ingest token is never refused.
@Suite(.waitsOnProcesses, .enabled(if: TestPostgres.runs, TestPostgres.skipReason))
struct RandomUploadAnswersTests {
  /// What one line of a random upload is, resolved against what was sent before it.
  enum LineKind: CaseIterable {
    case next, resent, gap, conflict, unreadable
  }

  /// One upload: its lines (each a kind and the session it is about), who signs it, and whether
  /// its gzip is cut short.
  struct UploadPlan {
    var lines: [(kind: LineKind, session: Int)]
    var signer: Int?
    var cutGzip: Bool
  }

  static let sessions = 4
  static let devices = (0..<2).map { _ in DeviceSigner.generated() }

  static let scenario = Generator<[UploadPlan], Shrink.None<[UploadPlan]>> { rng in
    (0..<Int.random(in: 4...10, using: &rng)).map { _ in
      let signer = Int.random(in: 0...devices.count, using: &rng)
      return UploadPlan(
        lines: (0..<Int.random(in: 1...6, using: &rng)).map { _ in
          (
            LineKind.allCases.randomElement(using: &rng) ?? .next,
            Int.random(in: 0..<sessions, using: &rng)
          )
        },
        signer: signer == devices.count ? nil : signer,
        cutGzip: Int.random(in: 0..<8, using: &rng) == 0)
    }
  }

  /// One request as sent, and what a store's ingest takes of it.
  struct Sent {
    var headers: HTTPFields
    var body: [UInt8]
    var lines: [String]
    var signer: DeviceKey?
    var cutGzip: Bool
  }

  /// The requests' bodies and headers (but the token's) for `plans`: sessions named after
  /// `prefix` (a case's own), each session's start naming the key of device `session % 3` (none
  /// for the third).
  static func requests(_ plans: [UploadPlan], prefix: String) throws -> [Sent] {
    // Each session's lines as made so far (the last taken as the session's tip), whether or not
    // the collector took them: the collector decides, the test only compares its answers.
    var made: [Int: [String]] = [:]
    var requests: [Sent] = []
    for plan in plans {
      var lines: [String] = []
      for (kind, session) in plan.lines {
        let id = "\(prefix)-\(session)"
        let sent = made[session] ?? []
        let seq = sent.count + 1
        switch kind {
        case .next:
          let line =
            sent.isEmpty
            ? start(id, owner: session % 3 == 2 ? nil : devices[session % 3])
            : push(id, seq: seq, screen: "s\(seq)")
          made[session, default: []].append(line)
          lines.append(line)
        case .resent:
          lines.append(sent.last ?? start(id, owner: nil))
        case .gap:
          lines.append(push(id, seq: seq + 1, screen: "ahead"))
        case .conflict:
          lines.append(sent.isEmpty ? push(id, seq: 1, screen: "no-start") : push(id, seq: sent.count, screen: "other"))
        case .unreadable:
          lines.append(#"{"session":"\#(id)","seq":"#)
        }
      }
      var body = try CollectorClient.body(of: lines)
      if plan.cutGzip { body = Array(body.prefix(body.count / 2)) }
      var headers: HTTPFields = [.contentType: "application/x-ndjson", .contentEncoding: "gzip"]
      if let signer = plan.signer {
        for (name, value) in try devices[signer].headers(for: body) {
          headers[try #require(HTTPField.Name(name))] = value
        }
      }
      requests.append(
        Sent(
          headers: headers, body: body, lines: lines, signer: plan.signer.flatMap { devices[$0].deviceKey },
          cutGzip: plan.cutGzip))
    }
    return requests
  }

  static func start(_ session: String, owner: DeviceSigner?) -> String {
    let context = owner?.deviceKey.map { #","context":{"deviceKey":"\#($0.text)"}"# } ?? ""
    return
      #"{"session":"\#(session)","seq":1,"at":"2026-11-21T10:00:00.000Z","op":{"op":"start","state":{"routes":[{"screen":"home","style":"root","withNavigation":true}]}\#(context)}}"#
  }

  static func push(_ session: String, seq: Int, screen: String) -> String {
    #"{"session":"\#(session)","seq":\#(seq),"at":"2026-11-21T10:00:\#(10 + seq % 50).000Z","op":{"op":"push","screen":"\#(screen)"}}"#
  }

  /// Every answer's status and body, in order.
  static func answers(
    _ app: some ApplicationProtocol, _ requests: [Sent], token: String
  ) async throws -> [(status: HTTPResponse.Status, body: [UInt8])] {
    try await app.test(.router) { client in
      var answers: [(HTTPResponse.Status, [UInt8])] = []
      for sent in requests {
        var headers = sent.headers
        headers[.authorization] = "Bearer \(token)"
        answers.append(
          try await client.execute(
            uri: "/v1/events", method: .post, headers: headers, body: ByteBuffer(bytes: sent.body)
          ) { ($0.status, Array($0.body.readableBytesView)) })
      }
      return answers
    }
  }

  /// The answer the old path gave each request: its lines stored by `backend`'s ingest, the
  /// outcome encoded by the contract's `Encodable` encoder; `nil` for a body cut short (a 400 before
  /// any line is read).
  static func oldAnswers(_ backend: SQLiteBackend, _ requests: [Sent]) async throws -> [[UInt8]?] {
    var answers: [[UInt8]?] = []
    for sent in requests {
      guard !sent.cutGzip else {
        answers.append(nil)
        continue
      }
      let outcome = try await backend.ingest(
        sent.lines.map { Array($0.utf8)[...] }, app: AppName("shop"), signedBy: sent.signer,
        datedUpTo: Timestamp(millisecondsSince1970: Timestamp.now.millisecondsSince1970 + 60_000))
      answers.append(try ContractJSON.encode(EventsEndpoint.answer(outcome)))
    }
    return answers
  }

  @Test func randomUploadsGetTheOldPathsAnswersFromBothStores() async throws {
    let pair = try await PostgresCollectorTests.pair()
    defer { pair.pool.cancel() }
    let referenceFleet = try SQLiteFleet(path: pair.folder.path("reference.sqlite"))
    _ = try referenceFleet.createToken(app: AppName("shop"), role: .ingest)  // makes the app
    let reference = SQLiteBackend(fleet: referenceFleet, logger: Logger(label: "reference"))
    let (local, shared) = pair.collectors()
    let ingest = try #require(pair.tokens["ingest"])
    // What the cases met between them, so that a generator that stops making some outcome
    // fails the test instead of leaving it unchecked.
    var reasons: Set<RejectionReason> = []
    var statuses: Set<Int> = []
    var accepted = 0
    var duplicates = 0
    var index = 0
    await checkProperty(count: 25, input: Self.scenario) { plans in
      index += 1
      let requests = try Self.requests(plans, prefix: "r\(index)-\(UUID().uuidString.prefix(8))")
      let old = try await Self.oldAnswers(reference, requests)
      let fromSQLite = try await Self.answers(local, requests, token: ingest.sqlite)
      let fromPostgres = try await Self.answers(shared, requests, token: ingest.postgres)
      #expect(fromSQLite.count == requests.count && fromPostgres.count == requests.count)
      for (number, ((sqlite, postgres), old)) in zip(zip(fromSQLite, fromPostgres), old).enumerated() {
        let upload = "upload \(number + 1) of \(plans.count)"
        #expect(postgres.status == sqlite.status, "\(upload): PostgreSQL's status")
        #expect(postgres.body == sqlite.body, "\(upload): \(String(decoding: postgres.body, as: UTF8.self))")
        statuses.insert(sqlite.status.code)
        guard let old else {
          #expect(sqlite.status == .badRequest, "\(upload): a cut gzip")
          continue
        }
        #expect(sqlite.status == .ok, "\(upload)")
        #expect(
          sqlite.body == old,
          "\(upload): \(String(decoding: sqlite.body, as: UTF8.self)) where the old path wrote \(String(decoding: old, as: UTF8.self))"
        )
        let answer = try WireFormat.decode(UploadAnswer.self, from: String(decoding: old, as: UTF8.self))
        reasons.formUnion(answer.rejected.map(\.rejection.reason))
        accepted += answer.accepted
        duplicates += answer.duplicates
      }
    }
    #expect(accepted > 0 && duplicates > 0)
    #expect(statuses == [200, 400], "\(statuses)")
    #expect(
      reasons.isSuperset(of: [.invalid, .conflict, .gap, .wrongDevice, .unknownSession]),
      "\(reasons.map(\.rawValue).sorted())")
  }
}
