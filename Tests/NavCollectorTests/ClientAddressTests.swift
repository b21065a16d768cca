import NavTestSupport
import PropertyBased
import Testing

@testable import NavCollector

/// Who a request came from, read from `X-Forwarded-For` behind a trusted proxy: the hop the
/// proxy appended names the client, whatever text the client put before it.
@Suite struct ClientAddressTests {
  static let proxy = ClientAddress(trustedProxies: ["10.0.0.0/8"].compactMap(IPNetwork.init))

  /// Text a client may send as its own `X-Forwarded-For`: addresses, junk, and marks that join
  /// the character after them (U+0600) or before them (U+0301) into one grapheme.
  static let pieces = ["203.0.113.9", "10.1.2.3", "::1", "x", " ", ",", "\u{600}", "\u{301}", "\u{200D}", "é"]

  @Test func theProxysHopNamesTheClientWhateverTheClientWroteBeforeIt() async {
    await checkProperty(
      count: 300, input: Gen.int(in: 0...Int(UInt32.max))
    ) { seed in
      var rng = SeededRandom(seed: UInt64(seed))
      let written = (0..<Int.random(in: 0...6, using: &rng)).map { _ in Self.pieces.randomElement(using: &rng) ?? "x" }
        .joined()
      let client = "198.51.100.\(Int.random(in: 1...254, using: &rng))"
      // The proxy appends the address it saw, as nginx's `$proxy_add_x_forwarded_for` does.
      let header = written.isEmpty ? client : written + ", " + client
      #expect(Self.proxy.client(peer: "10.0.0.1", forwardedFor: [header]) == client, "\(header.debugDescription)")
    }
  }

  @Test func aPeerThatIsNoTrustedProxyIsTheClient() {
    #expect(Self.proxy.client(peer: "203.0.113.5", forwardedFor: ["198.51.100.1"]) == "203.0.113.5")
  }

  @Test func trustedHopsArePassedOverFromTheRight() {
    #expect(
      Self.proxy.client(peer: "10.0.0.1", forwardedFor: ["198.51.100.1, 10.2.0.1", "10.3.0.1"]) == "198.51.100.1")
  }
}
