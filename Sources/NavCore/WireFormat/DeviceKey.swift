/// The public half of the key a device signs its uploads with: an Ed25519 public key, written
/// as the 43 characters of its 32 bytes in unpadded base64url (RFC 4648, 5).
///
/// A session whose `start` names a device key (in its context, hash-chained with it) belongs to
/// that device: a collector takes its lines only from requests signed by the key's private
/// half, so the ingest token every copy of the app carries cannot extend another device's
/// session. The store makes the key on a device's first recording; the app never handles it.
package struct DeviceKey: Hashable, Sendable, CustomStringConvertible {
  /// The key's 32 bytes.
  package let rawRepresentation: [UInt8]

  /// The key with these 32 bytes; `nil` for any other length.
  package init?(rawRepresentation bytes: [UInt8]) {
    guard bytes.count == 32 else { return nil }
    rawRepresentation = bytes
  }

  /// The key `text` writes (43 characters of unpadded base64url); `nil` for any other text.
  package init?(text: String) {
    guard text.utf8.count == 43, let bytes = Base64URL.decode(text), bytes.count == 32,
      Base64URL.encode(bytes) == text
    else { return nil }
    rawRepresentation = bytes
  }

  /// The key as the wire format writes it.
  package var text: String { Base64URL.encode(rawRepresentation) }

  package var description: String { text }
}

/// Unpadded base64url (RFC 4648, 5), the alphabet that needs no escaping in a URL, a header or
/// a file name.
package enum Base64URL {
  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

  /// `bytes` in base64url, without padding.
  package static func encode(_ bytes: some Collection<UInt8>) -> String {
    var output: [UInt8] = []
    output.reserveCapacity((bytes.count * 4 + 2) / 3)
    var iterator = bytes.makeIterator()
    while let first = iterator.next() {
      let second = iterator.next()
      let third = iterator.next()
      let group = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
      output.append(alphabet[Int(group >> 18 & 63)])
      output.append(alphabet[Int(group >> 12 & 63)])
      if second != nil { output.append(alphabet[Int(group >> 6 & 63)]) }
      if third != nil { output.append(alphabet[Int(group & 63)]) }
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// The bytes `text` encodes, without padding; `nil` when it holds anything else.
  package static func decode(_ text: String) -> [UInt8]? {
    var values: [UInt8] = []
    values.reserveCapacity(text.utf8.count)
    for character in text.utf8 {
      switch character {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): values.append(character - UInt8(ascii: "A"))
      case UInt8(ascii: "a")...UInt8(ascii: "z"): values.append(character - UInt8(ascii: "a") + 26)
      case UInt8(ascii: "0")...UInt8(ascii: "9"): values.append(character - UInt8(ascii: "0") + 52)
      case UInt8(ascii: "-"): values.append(62)
      case UInt8(ascii: "_"): values.append(63)
      default: return nil
      }
    }
    guard values.count % 4 != 1 else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(values.count * 3 / 4)
    var index = 0
    while index < values.count {
      let chunk = values[index..<min(values.count, index + 4)]
      var group: UInt32 = 0
      for (offset, value) in chunk.enumerated() { group |= UInt32(value) << (18 - 6 * UInt32(offset)) }
      bytes.append(UInt8(group >> 16 & 0xFF))
      if chunk.count > 2 { bytes.append(UInt8(group >> 8 & 0xFF)) }
      if chunk.count > 3 { bytes.append(UInt8(group & 0xFF)) }
      index += 4
    }
    return bytes
  }
}
