import NavCore

/// A typed screen like an app would declare: synthesized `Codable` gives the one-key object
/// shape (`{"numberDetail":{"number":3}}`) the screen-name rule is built around.
enum AppScreen: Codable, Hashable, Sendable {
  case home
  case numbersList
  case numberDetail(number: Int)
  case onboarding(step: Int)
}

/// Decodes wire-format text, failing the test with the decoder's message when it is refused.
func decoded<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
  try WireFormat.decode(type, from: text)
}

/// The canonical text of a value, for comparisons that read like the wire format.
func canonical<T: Encodable>(_ value: T) throws -> String {
  try WireFormat.canonicalString(value)
}
