/// The contract's paths as URLs write them.
package enum ContractPath {
  /// `text` as one segment of a URL's path: every byte but RFC 3986's unreserved characters
  /// percent-encoded once (a `/`, a `%` and a space included), and a segment of dots alone
  /// (`.`, `..`) encoded too, so that no client or proxy reads it as "this folder" or "up".
  package static func segment(_ text: String) -> String {
    let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
    let onlyDots = text.utf8.allSatisfy { $0 == UInt8(ascii: ".") }
    var encoded = ""
    for byte in text.utf8 {
      if unreserved.contains(byte), !(onlyDots && byte == UInt8(ascii: ".")) {
        encoded.append(Character(Unicode.Scalar(byte)))
      } else {
        let digits = Array("0123456789ABCDEF")
        encoded += "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
      }
    }
    return encoded
  }
}
