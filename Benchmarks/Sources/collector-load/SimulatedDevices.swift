import Crypto
import Foundation
import NavCore
import ZlibGzip

/// The devices of one run, each with a key of its own and its uploads made before the clock: a
/// device records sessions of `eventsPerSession` events (a start naming its key, pushes and pops
/// in turn, an end) one after another, and uploads them as the uploader does once it has 20
/// events waiting: gzip'd batches of `batchLines` lines, each signed with the device's key. A
/// batch may end one session and begin the next. A device compresses and signs on its own time,
/// so neither is timed.
struct SimulatedDevices {
  /// One request's body and its signature headers.
  struct Upload: Sendable {
    let body: [UInt8]
    let lines: Int
    let deviceKey: String
    let signature: String
    /// The address the device sends from (`X-Forwarded-For`, through the loopback the
    /// collector trusts as its proxy): a fleet's devices come from many addresses, and a
    /// client's share and rate are a token's from one address.
    var address = ""
  }

  /// Each device's uploads, in the order it sends them.
  let uploads: [[Upload]]
  /// Every line once, device after device: what `navstore import` reads as the anchor.
  let allLines: [String]

  var lineCount: Int { allLines.count }
  var requestCount: Int { uploads.reduce(0) { $0 + $1.count } }

  static let eventsPerSession = 100
  static let batchLines = 20

  /// `devices` devices sharing `lines` lines (as evenly as it goes), their session ids made
  /// unique by `run`.
  init(devices: Int, lines: Int, run: String, batchLines: Int = SimulatedDevices.batchLines) throws {
    let template = try SessionTemplate(events: Self.eventsPerSession)
    var uploads: [[Upload]] = []
    var allLines: [String] = []
    allLines.reserveCapacity(lines)
    for device in 0..<devices {
      let key = Curve25519.Signing.PrivateKey()
      let share = lines / devices + (device < lines % devices ? 1 : 0)
      var deviceLines: [String] = []
      deviceLines.reserveCapacity(share)
      var session = 0
      while deviceLines.count < share {
        let id = "\(run)-d\(device)-s\(session)"
        let wanted = min(Self.eventsPerSession, share - deviceLines.count)
        deviceLines += try template.lines(session: id, deviceKey: key.publicKey, count: wanted)
        session += 1
      }
      let address = "10.\(device / 65_536 % 256).\(device / 256 % 256).\(device % 256)"
      uploads.append(
        try stride(from: 0, to: deviceLines.count, by: batchLines).map { start in
          let batch = deviceLines[start..<min(start + batchLines, deviceLines.count)]
          var upload = try Self.upload(Array(batch.joined().utf8), lines: batch.count, key: key)
          upload.address = address
          return upload
        })
      allLines += deviceLines
    }
    self.uploads = uploads
    self.allLines = allLines
  }

  /// `text` gzip'd and signed as the contract says: Ed25519 over `navstore-upload-v1`, a
  /// newline, and the SHA-256 of the body as sent.
  static func upload(_ text: [UInt8], lines: Int, key: Curve25519.Signing.PrivateKey) throws -> Upload {
    let body = try gzip(text)
    let message = Array("navstore-upload-v1\n".utf8) + Array(SHA256.hash(data: body))
    return Upload(
      body: body, lines: lines, deviceKey: base64URL(Array(key.publicKey.rawRepresentation)),
      signature: base64URL(Array(try key.signature(for: message))))
  }

  static func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
    var output = [UInt8](repeating: 0, count: zlib_gzip_bound(bytes.count))
    let written = bytes.withUnsafeBufferPointer { input in
      output.withUnsafeMutableBufferPointer { zlib_gzip(input.baseAddress, input.count, $0.baseAddress, $0.count) }
    }
    guard written > 0 else { throw LoadError("zlib could not compress a batch") }
    output.removeLast(output.count - written)
    return output
  }

  /// Unpadded base64url (RFC 4648, 5), as the contract's headers and `deviceKey` write it.
  static func base64URL(_ bytes: [UInt8]) -> String {
    Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
  }
}

/// One session's lines, canonical, made once and given each session's id by substitution (the
/// placeholder is a plain word, so no escaping differs): made line by line through the wire
/// format it would cost more than the run it feeds.
struct SessionTemplate {
  private static let placeholder = "SESSIONPLACEHOLDER"
  private let start: String
  private let rest: [String]

  init(events: Int) throws {
    let id = try SessionID(Self.placeholder)
    let base: Int64 = 1_795_000_000_000
    func line(_ seq: Int, _ operation: AnyOperation) throws -> String {
      try WireFormat.canonicalString(
        AnyEvent(
          session: id, at: Timestamp(millisecondsSince1970: base + Int64(seq) * 250), origin: .app,
          operation: operation)) + "\n"
    }
    start = try line(0, .start(.stack([.root(.string("home"), withNavigation: true)])))
    rest = try (1..<max(events, 2)).map { seq in
      if seq == events - 1 { return try line(seq, .end(reason: "closed")) }
      return try line(seq, seq.isMultiple(of: 2) ? .pop(1) : .push(.string("screen-\(seq % 7)")))
    }
  }

  /// The session's lines under the id `session`, its start naming no device.
  func unsignedLines(session: String) -> [String] {
    ([start] + rest).map { $0.replacingOccurrences(of: Self.placeholder, with: session) }
  }

  /// The first `count` lines of the session `session`, its start naming `deviceKey`.
  func lines(session: String, deviceKey: Curve25519.Signing.PublicKey, count: Int) throws -> [String] {
    guard count > 0 else { return [] }
    let key = SimulatedDevices.base64URL(Array(deviceKey.rawRepresentation))
    // The start with its context, through the wire format once more so that it stays canonical
    // wherever the context's member goes.
    guard var object = try JSONSerialization.jsonObject(with: Data(start.utf8)) as? [String: Any],
      var operation = object["op"] as? [String: Any]
    else { throw LoadError("the start line is not an object") }
    operation["context"] = ["deviceKey": key]
    object["op"] = operation
    object["session"] = session
    let text = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    let first = try WireFormat.canonicalString(try WireFormat.decode(AnyEvent.self, from: text)) + "\n"
    return [first] + rest.prefix(count - 1).map { $0.replacingOccurrences(of: Self.placeholder, with: session) }
  }
}

/// A failure of the load run, said in one line.
struct LoadError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
