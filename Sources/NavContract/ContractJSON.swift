import NavJSON

/// How both sides write and read the contract's bodies: the collector writes canonical JSON
/// (RFC 8785: the same bytes for the same answer), and both read with the strict parser the
/// wire format uses, so a body one side writes is a body the other reads.
package enum ContractJSON {
  /// The body of `value`, as the collector sends it: canonical JSON and a newline.
  package static func encode(_ value: some Encodable) throws -> [UInt8] {
    Array((try JSONValueEncoder().encode(value).canonicalString + "\n").utf8)
  }

  /// A body read as `type`; throws when it is not JSON, or not one.
  package static func decode<T: Decodable>(_ type: T.Type, from body: some Collection<UInt8>) throws -> T {
    try JSONValueDecoder().decode(type, from: try JSONParser.parse(body))
  }
}
