import Foundation
import NavCollector
import NavCore
import NavIngest
import NavPersistence
import NavTestSupport
import NavUpload
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An app that hands the uploader its own `URLSession`: here one whose protocol class stands in
/// for the network, as an app's tests would, so the backlog is uploaded with no collector
/// running, through the app's session and nothing else.
@Suite struct OwnURLSessionTests {
  @Test func aBacklogGoesThroughTheAppsOwnSession() async throws {
    let folder = try TemporaryFolder()
    let device = try SessionStore(path: folder.path("device.sqlite"))
    _ = try await device.ingest(SessionLines.bytes(prefix: "own", sessions: 3, events: 7))
    let configuration = URLSessionConfiguration.ephemeral
    configuration.protocolClasses = [StandInCollector.self]
    let session = URLSession(configuration: configuration)
    let collector = try #require(URL(string: "https://collector.invalid"))
    let uploader = NavigationUploader(store: device, collector: collector, token: "nvs_0_0", session: session)
    #expect(await uploader.flush() == .done)
    #expect(try await device.pendingUploads().events == 0)
    let received = StandInCollector.received.withLock { $0 }
    #expect(received.count == 21, "every event went through the app's session once")
    #expect(Set(received.map(\.session)) == ["own-0", "own-1", "own-2"])
  }
}

/// A collector that lives in the app's `URLSession`: it takes every upload whole.
final class StandInCollector: URLProtocol {
  /// The events it was sent.
  static let received = Protected<[(session: String, seq: Int)]>([])

  override class func canInit(with request: URLRequest) -> Bool { true }
  override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

  override func startLoading() {
    var events: [(session: String, seq: Int)] = []
    if let body = Self.body(of: request), let text = try? Self.gunzip(body) {
      for line in text.split(separator: "\n") {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
          let session = object["session"] as? String, let seq = object["seq"] as? Int
        else { continue }
        events.append((session, seq))
      }
    }
    Self.received.withLock { $0 += events }
    var heads: [String: Any] = [:]
    for (session, seq) in events {
      heads[session] = ["seq": max(seq, ((heads[session] as? [String: Any])?["seq"] as? Int) ?? 0)]
    }
    let answer: [String: Any] = ["accepted": events.count, "duplicates": 0, "rejected": [Any](), "heads": heads]
    let data = (try? JSONSerialization.data(withJSONObject: answer)) ?? Data()
    let response = HTTPURLResponse(
      url: request.url ?? URL(fileURLWithPath: "/"), statusCode: 200, httpVersion: "HTTP/1.1",
      headerFields: ["Content-Type": "application/json"])
    if let response { client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed) }
    client?.urlProtocol(self, didLoad: data)
    client?.urlProtocolDidFinishLoading(self)
  }

  override func stopLoading() {}

  /// The request's body, given whole or as a stream.
  static func body(of request: URLRequest) -> Data? {
    if let body = request.httpBody { return body }
    guard let stream = request.httpBodyStream else { return nil }
    stream.open()
    defer { stream.close() }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while stream.hasBytesAvailable {
      let read = stream.read(&buffer, maxLength: buffer.count)
      guard read > 0 else { break }
      data.append(contentsOf: buffer[..<read])
    }
    return data
  }

  static func gunzip(_ data: Data) throws -> String {
    let inflater = try GzipInflater()
    var out: [UInt8] = []
    try data.withUnsafeBytes { bytes in try inflater.inflate(bytes) { out += $0 } }
    try inflater.finish()
    return String(decoding: out, as: UTF8.self)
  }
}
