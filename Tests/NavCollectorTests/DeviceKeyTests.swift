import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NavCollector
import NavCore
import NavFleet
import NavPersistence
import NavTestSupport
import NavUpload
import PropertyBased
import Testing

/// A session belongs to the device that started it: a line of a session whose start names a
/// device key is taken only from an upload signed by that key, whoever holds the app's ingest
/// token; sessions without a key are taken as before; a signature that does not hold is a 401
/// with nothing stored.
@Suite struct DeviceKeyTests {
  let folder: TemporaryFolder
  let store: SQLiteFleet
  let ingest: String
  let reader: String

  init() throws {
    folder = try TemporaryFolder()
    store = try SQLiteFleet(path: folder.path("collector.sqlite"))
    ingest = try store.createToken(app: AppName("shop"), role: .ingest).text
    reader = try store.createToken(app: AppName("shop"), role: .read).text
  }

  func app() -> some ApplicationProtocol { Application(router: Collector.router(fleet: store)) }

  /// A session's start, naming `owner`'s key when given.
  static func start(_ session: String, owner: DeviceSigner?) -> String {
    let context = owner?.deviceKey.map { #","context":{"deviceKey":"\#($0.text)"}"# } ?? ""
    return
      #"{"session":"\#(session)","seq":1,"at":"2026-11-21T10:00:00.000Z","op":{"op":"start","state":{"routes":[{"screen":"home","style":"root","withNavigation":true}]}\#(context)}}"#
  }

  static func push(_ session: String, seq: Int, screen: String = "detail") -> String {
    #"{"session":"\#(session)","seq":\#(seq),"at":"2026-11-21T10:00:0\#(seq).000Z","op":{"op":"push","screen":"\#(screen)"}}"#
  }

  /// Uploads `lines` (gzip'd, as the uploader sends them), signed by `signer` when given; the
  /// status and the answer.
  func upload(
    _ lines: [String], signer: DeviceSigner?, client: some TestClientProtocol, headers extra: HTTPFields = [:]
  ) async throws -> (HTTPResponse.Status, JSONValue?) {
    let body = try CollectorClient.body(of: lines)
    var headers: HTTPFields = [
      .authorization: "Bearer \(ingest)", .contentType: "application/x-ndjson", .contentEncoding: "gzip",
    ]
    if let signer {
      for (name, value) in try signer.headers(for: body) { headers[try #require(HTTPField.Name(name))] = value }
    }
    for field in extra { headers[field.name] = field.value }
    return try await client.execute(uri: "/v1/events", method: .post, headers: headers, body: ByteBuffer(bytes: body)) {
      response in (response.status, try? WireFormat.decode(JSONValue.self, from: String(buffer: response.body)))
    }
  }

  static func reasons(_ answer: JSONValue?) -> [String] {
    guard case .array(let rejected)? = answer?["rejected"] else { return [] }
    return rejected.compactMap { line -> String? in
      guard case .string(let reason)? = line["reason"] else { return nil }
      return reason
    }
  }

  @Test func aSecondDeviceCannotAppendToASessionTheFirstStarted() async throws {
    let owner = DeviceSigner.generated()
    let other = DeviceSigner.generated()
    try await app().test(.router) { client in
      let started = try await upload([Self.start("mine", owner: owner)], signer: owner, client: client)
      #expect(started.0 == .ok && started.1?["accepted"] == 1)
      // The forged append, by a device holding the same ingest token, signed or not: refused.
      for forger in [other, nil] {
        let (status, answer) = try await upload(
          [Self.push("mine", seq: 2, screen: "forged")], signer: forger, client: client)
        #expect(status == .ok && answer?["accepted"] == 0)
        #expect(Self.reasons(answer) == ["wrong-device"], "\(String(describing: answer))")
        #expect(answer?["heads"]?["mine"]?["seq"] == 1)
      }
      // The owner goes on.
      let (status, answer) = try await upload([Self.push("mine", seq: 2)], signer: owner, client: client)
      #expect(status == .ok && answer?["accepted"] == 1)
    }
    let history = try await store.store(of: AppName("shop")).read { try $0.history(of: sessionID("mine")) }
    #expect(history.map(\.operation.name) == ["start", "push"])
    #expect(history.last?.operation.screen == .string("detail"), "the owner's push, not the forged one")
  }

  @Test func aStartNamingAnotherDevicesKeyIsRefusedUnlessThatDeviceSignedIt() async throws {
    let owner = DeviceSigner.generated()
    let other = DeviceSigner.generated()
    try await app().test(.router) { client in
      let (_, answer) = try await upload([Self.start("claimed", owner: owner)], signer: other, client: client)
      #expect(Self.reasons(answer) == ["wrong-device"])
      let (_, unsigned) = try await upload([Self.start("claimed", owner: owner)], signer: nil, client: client)
      #expect(Self.reasons(unsigned) == ["wrong-device"])
    }
    #expect(throws: StoreError.self) { try store.store(of: AppName("shop")).summary(of: sessionID("claimed")) }
  }

  @Test func sessionsWithoutAKeyAreTakenFromAnyUpload() async throws {
    let device = DeviceSigner.generated()
    try await app().test(.router) { client in
      let unsigned = try await upload([Self.start("plain", owner: nil)], signer: nil, client: client)
      #expect(unsigned.1?["accepted"] == 1)
      let signed = try await upload([Self.push("plain", seq: 2)], signer: device, client: client)
      #expect(signed.1?["accepted"] == 1)
    }
  }

  @Test func aSignatureThatDoesNotHoldIsA401WithNothingStored() async throws {
    let device = DeviceSigner.generated()
    let lines = [Self.start("signed", owner: device)]
    let otherBody = try CollectorClient.body(of: [Self.start("else", owner: device)])
    let wrongSignature = try #require(try device.headers(for: otherBody)[UploadSignature.signatureHeader])
    let keyText = try #require(device.deviceKey?.text)
    let keyName = try #require(HTTPField.Name(UploadSignature.keyHeader))
    let signatureName = try #require(HTTPField.Name(UploadSignature.signatureHeader))
    try await app().test(.router) { client in
      let cases: [HTTPFields] = [
        [keyName: keyText, signatureName: wrongSignature],  // another body's signature
        [keyName: keyText],  // a key without a signature
        [signatureName: wrongSignature],  // a signature without a key
        [keyName: "not-a-key", signatureName: wrongSignature],
        [keyName: keyText, signatureName: "%%%"],
      ]
      for headers in cases {
        let (status, answer) = try await upload(lines, signer: nil, client: client, headers: headers)
        #expect(status == .unauthorized && answer?["error"] == "bad-signature", "\(headers)")
      }
    }
    #expect(throws: StoreError.self) { try store.store(of: AppName("shop")).summary(of: sessionID("signed")) }
  }

  /// A client is a token from one address: a device key named in a request is a claim, and buys
  /// no rate of its own (naming a real device's key cannot spend its rate); another address has a
  /// bucket of its own; and all of the token's clients together one more.
  @Test func aClaimedDeviceKeyBuysNoRateOfItsOwn() async throws {
    // Refills of one request in 1,000 s: a busy machine cannot refill a bucket mid-test.
    var configuration = CollectorConfiguration(
      clientRate: RequestRate(perSecond: 0.001, burst: 2), tokenRate: RequestRate(perSecond: 0.001, burst: 5))
    configuration.trustedProxies = ["127.0.0.1", "::1"].compactMap(IPNetwork.init)
    let devices = (0..<2).map { _ in DeviceSigner.generated() }
    let keyName = try #require(HTTPField.Name(UploadSignature.keyHeader))
    try await Application(router: Collector.router(fleet: store, configuration: configuration)).test(.live) {
      client in
      func limits(from address: String, as device: DeviceSigner?) async throws -> HTTPResponse.Status {
        var headers: HTTPFields = [.authorization: "Bearer \(ingest)"]
        headers[try #require(HTTPField.Name("X-Forwarded-For"))] = address
        if let key = device?.deviceKey?.text { headers[keyName] = key }
        return try await client.execute(uri: "/v1/limits", method: .get, headers: headers) { $0.status }
      }
      // One address spends its burst whatever keys its requests name; another has its own;
      // after five requests of the token's clients, the token's burst is spent for all.
      var statuses: [HTTPResponse.Status] = []
      for (address, device) in [
        ("203.0.113.1", devices[0]), ("203.0.113.1", devices[0]), ("203.0.113.1", devices[1]),
        ("203.0.113.2", devices[0]), ("203.0.113.2", nil), ("203.0.113.3", nil), ("203.0.113.4", nil),
      ] {
        statuses.append(try await limits(from: address, as: device))
      }
      #expect(statuses == [.ok, .ok, .tooManyRequests, .ok, .ok, .ok, .tooManyRequests])
    }
  }

  /// Random uploads by random devices of random sessions: a line is taken exactly when its
  /// session has no key or the upload is signed by the key its start names.
  @Test func aLineIsTakenExactlyWhenItsSessionsOwnerSignedIt() async throws {
    let devices = (0..<3).map { _ in DeviceSigner.generated() }
    let scenario = Generator<[RandomUpload], Shrink.None<[RandomUpload]>> { rng in
      (0..<12).map { _ in
        let owner = Int.random(in: 0...3, using: &rng)
        let signer = Int.random(in: 0...3, using: &rng)
        return RandomUpload(
          session: Int.random(in: 0..<4, using: &rng), owner: owner == 3 ? nil : owner,
          signer: signer == 3 ? nil : signer)
      }
    }
    await checkProperty(count: 20, input: scenario) { uploads in
      let folder = try TemporaryFolder()
      let store = try SQLiteFleet(path: folder.path("c.sqlite"))
      let token = try store.createToken(app: .default, role: .ingest).text
      try await Application(router: Collector.router(fleet: store)).test(.router) { client in
        // Each started session's owner (nil: none), and the seq of its next line.
        var owners: [Int: Int?] = [:]
        var next: [Int: Int] = [:]
        for upload in uploads {
          let session = "s-\(upload.session)"
          let isStart = owners[upload.session] == nil
          let line =
            isStart
            ? Self.start(session, owner: upload.owner.map { devices[$0] })
            : Self.push(session, seq: next[upload.session] ?? 2)
          let body = try CollectorClient.body(of: [line])
          var headers: HTTPFields = [
            .authorization: "Bearer \(token)", .contentType: "application/x-ndjson", .contentEncoding: "gzip",
          ]
          if let signer = upload.signer {
            for (name, value) in try devices[signer].headers(for: body) {
              headers[try #require(HTTPField.Name(name))] = value
            }
          }
          let owner = isStart ? upload.owner : owners[upload.session] ?? nil
          let expected = owner == nil || owner == upload.signer
          try await client.execute(uri: "/v1/events", method: .post, headers: headers, body: ByteBuffer(bytes: body)) {
            response in
            let answer = try? WireFormat.decode(JSONValue.self, from: String(buffer: response.body))
            #expect(response.status == .ok)
            #expect((answer?["accepted"] == 1) == expected, "\(line) by \(String(describing: upload.signer))")
          }
          if expected {
            if isStart { owners[upload.session] = .some(upload.owner) }
            next[upload.session] = (next[upload.session] ?? 1) + 1
          }
        }
      }
    }
  }
}

/// One upload of a random scenario: a line of session `session` (its start, naming device
/// `owner`'s key, when the session has none yet), signed by device `signer` when given.
struct RandomUpload {
  var session: Int
  var owner: Int?
  var signer: Int?
}
