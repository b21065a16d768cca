import Crypto
@_spi(Internals) import NavCore

/// The tamper-evident chain over a session's events (spec: "Hash chain").
///
/// `hash(n) = SHA-256(hash(n-1) || canonical(event n without "hash"))`, with `hash(0)` 32 zero
/// bytes and `canonical` the RFC 8785 text of the event. Editing, removing, inserting or
/// reordering any event changes every later value.
package enum HashChain {
  /// `hash(0)`.
  package static let genesis = [UInt8](repeating: 0, count: 32)

  /// The chain value of `event` (its `hash` is ignored) after `previous`.
  package static func hash(of event: AnyEvent, after previous: [UInt8]) throws(WireFormatError) -> [UInt8] {
    hash(ofCanonicalBytes: try WireFormat.canonicalBytes(event.withoutHash), after: previous)
  }

  /// The chain value of an event already written in canonical form (without `hash`).
  static func hash(ofCanonicalBytes bytes: [UInt8], after previous: [UInt8]) -> [UInt8] {
    // Raw buffers, not `DataProtocol`: the generic path walks its regions at every call.
    var hasher = SHA256()
    previous.withUnsafeBytes { hasher.update(bufferPointer: $0) }
    bytes.withUnsafeBytes { hasher.update(bufferPointer: $0) }
    return hasher.finalize().withUnsafeBytes { Array($0) }
  }

  /// Lowercase hex, as the wire format writes hashes.
  package static func hex(_ bytes: [UInt8]) -> String {
    var text: [UInt8] = []
    text.reserveCapacity(bytes.count * 2)
    bytes.withUnsafeBytes { appendHex($0, to: &text) }
    return String(decoding: text, as: UTF8.self)
  }

  /// Appends the lowercase hex of `bytes` to a buffer (exports write hashes by the million):
  /// each byte's two digits are looked up in a table of all 256, written on the stack, then
  /// copied in one go.
  package static func appendHex(_ bytes: UnsafeRawBufferPointer, to text: inout [UInt8]) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count * 2) { digits in
      let output = UnsafeMutableRawBufferPointer(digits)
      hexPairs.withUnsafeBufferPointer { pairs in
        for (offset, byte) in bytes.enumerated() {
          output.storeBytes(of: pairs[Int(byte)], toByteOffset: offset &* 2, as: UInt16.self)
        }
      }
      text.append(contentsOf: UnsafeBufferPointer(digits))
    }
  }

  /// The two lowercase hex digits of every byte value, as they lie in memory.
  private static let hexPairs: [UInt16] = (0...255).map { byte in
    let digits = Array("0123456789abcdef".utf8)
    return UInt16(littleEndian: UInt16(digits[byte >> 4]) | UInt16(digits[byte & 0x0F]) << 8)
  }
}
