import Foundation

/// An IP network, `10.0.0.0/8` or `2001:db8::/32`, or one address (`127.0.0.1`, `::1`): what
/// `serve --trusted-proxy` names.
package struct IPNetwork: Hashable, Sendable, CustomStringConvertible {
  /// The network's address, 4 bytes or 16.
  let address: [UInt8]
  /// How many leading bits of an address must equal the network's.
  let prefixLength: Int

  /// The network `text` names, or `nil` when it names none.
  package init?(_ text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), let address = IPNetwork.bytes(of: String(parts[0])) else { return nil }
    let bits = address.count * 8
    if parts.count == 2 {
      guard let length = Int(parts[1]), (0...bits).contains(length), parts[1].allSatisfy(\.isASCII) else {
        return nil
      }
      prefixLength = length
    } else {
      prefixLength = bits
    }
    self.address = address
  }

  /// Whether `address` (4 or 16 bytes) is in the network.
  func contains(_ address: [UInt8]) -> Bool {
    guard address.count == self.address.count else { return false }
    var remaining = prefixLength
    for (mine, theirs) in zip(self.address, address) where remaining > 0 {
      let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
      guard mine & mask == theirs & mask else { return false }
      remaining -= 8
    }
    return true
  }

  package var description: String {
    IPNetwork.text(of: address) + (prefixLength == address.count * 8 ? "" : "/\(prefixLength)")
  }

  /// The bytes of an IPv4 or IPv6 address in text (an IPv4 address mapped into IPv6 is its 4
  /// bytes), or `nil`.
  package static func bytes(of text: String) -> [UInt8]? {
    var v4 = in_addr()
    if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
    var v6 = in6_addr()
    guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
    let bytes = withUnsafeBytes(of: &v6) { Array($0) }
    let mapped: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]
    return Array(bytes.prefix(12)) == mapped ? Array(bytes.suffix(4)) : bytes
  }

  /// An address's usual text.
  static func text(of bytes: [UInt8]) -> String {
    var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
    let family = bytes.count == 4 ? AF_INET : AF_INET6
    let written = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &buffer, socklen_t(buffer.count)) }
    guard written != nil else { return "?" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

/// Who a request came from: the connection's peer, or, when the peer is a trusted proxy, the
/// address it names in `X-Forwarded-For`.
///
/// The header is read from its right end, where the trusted proxy appended the address it saw:
/// each address that is itself a trusted proxy is passed over, and the first that is not is the
/// client. Addresses further left were written by the client and prove nothing. A peer that is
/// not trusted is the client whatever the header says, so a client cannot name itself someone
/// else.
struct ClientAddress {
  let trustedProxies: [IPNetwork]

  func client(peer: String?, forwardedFor: [String]) -> String? {
    guard let peer, let peerBytes = IPNetwork.bytes(of: peer) else { return peer }
    guard isTrusted(peerBytes) else { return IPNetwork.text(of: peerBytes) }
    // Split by byte, not by `Character`: a client's text can end in a mark that joins the
    // proxy's `,` into one character (U+0600 does), and a split by character would then read the
    // proxy's hop as part of the client's and stop before it.
    let hops = forwardedFor.flatMap { $0.utf8.split(separator: UInt8(ascii: ",")) }.map {
      String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }
    var client = peerBytes
    for hop in hops.reversed() {
      guard let bytes = IPNetwork.bytes(of: hop) else { break }
      client = bytes
      guard isTrusted(bytes) else { break }
    }
    return IPNetwork.text(of: client)
  }

  /// The part of a client's address its shares and rates are kept by: an IPv4 address whole,
  /// an IPv6 address's network (its first 64 bits: `2001:db8:1:2::/64`), since one subscriber
  /// holds a whole /64 and could otherwise be as many clients as it likes. `nil` stays `nil`.
  static func shareKey(of client: String?) -> String? {
    guard let client, let bytes = IPNetwork.bytes(of: client), bytes.count == 16 else { return client }
    return IPNetwork.text(of: Array(bytes.prefix(8)) + [UInt8](repeating: 0, count: 8)) + "/64"
  }

  /// Whether the connection's peer is one of the trusted proxies.
  func isTrusted(peer: String?) -> Bool { peer.flatMap { IPNetwork.bytes(of: $0) }.map(isTrusted) ?? false }

  private func isTrusted(_ address: [UInt8]) -> Bool { trustedProxies.contains { $0.contains(address) } }
}
