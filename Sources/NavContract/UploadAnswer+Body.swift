import NavCore
import NavJSON

extension UploadAnswer {
  /// The answer's body, byte for byte what `ContractJSON.encode(self)` writes (canonical JSON
  /// and a newline), written straight into bytes. The collector answers every upload with one:
  /// through `Encodable`, a tree of JSON values and a string it cost as much as inflating the
  /// upload's body.
  package var body: [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(64 + heads.count * 112 + rejected.count * 192)
    output.append(contentsOf: #"{"accepted":"#.utf8)
    Self.write(accepted, to: &output)
    output.append(contentsOf: #","duplicates":"#.utf8)
    Self.write(duplicates, to: &output)
    output.append(contentsOf: #","heads":{"#.utf8)
    for (position, (key, head)) in Self.headMembers(heads).enumerated() {
      if position > 0 { output.append(UInt8(ascii: ",")) }
      CanonicalJSON.writeString(key, to: &output)
      output.append(contentsOf: #":{"hash":"#.utf8)
      Self.write(head.hash, to: &output)
      output.append(contentsOf: #","seq":"#.utf8)
      Self.write(head.seq, to: &output)
      output.append(UInt8(ascii: "}"))
    }
    output.append(contentsOf: #"},"rejected":["#.utf8)
    for (position, line) in rejected.enumerated() {
      if position > 0 { output.append(UInt8(ascii: ",")) }
      output.append(contentsOf: #"{"line":"#.utf8)
      Self.write(line.line, to: &output)
      output.append(contentsOf: #","message":"#.utf8)
      CanonicalJSON.writeString(line.rejection.message, to: &output)
      output.append(contentsOf: #","reason":"#.utf8)
      CanonicalJSON.writeString(line.rejection.reason.rawValue, to: &output)
      output.append(contentsOf: #","seq":"#.utf8)
      if let seq = line.rejection.seq { Self.write(seq, to: &output) } else { output.append(contentsOf: "null".utf8) }
      output.append(contentsOf: #","session":"#.utf8)
      Self.write(line.rejection.session?.rawValue, to: &output)
      output.append(UInt8(ascii: "}"))
    }
    output.append(contentsOf: "]}\n".utf8)
    return output
  }

  /// The heads as the object's members (`SessionKeyed`'s), in canonical order (UTF-16 code
  /// units).
  private static func headMembers(_ heads: [SessionID: SessionHead]) -> [(key: String, value: SessionHead)] {
    SessionKeyed.members(heads).sorted { $0.key.utf16.lexicographicallyPrecedes($1.key.utf16) }
  }

  /// A whole number as a JSON value writes it (a double, exact up to 2^53).
  private static func write(_ number: Int, to output: inout [UInt8]) {
    CanonicalJSON.writeNumber(Double(number), to: &output)
  }

  private static func write(_ text: String?, to output: inout [UInt8]) {
    guard let text else { return output.append(contentsOf: "null".utf8) }
    CanonicalJSON.writeString(text, to: &output)
  }
}
