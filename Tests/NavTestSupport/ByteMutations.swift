/// Damage for valid JSON text, for the fuzz and shortcut tests: bytes replaced by ones that
/// matter to a JSON reader (or by any byte), inserted, deleted, duplicated, or the text cut.
public enum ByteMutations {
  /// Bytes that change how JSON reads: structure, digits, escapes, and invalid UTF-8.
  public static let interesting: [UInt8] = Array(#"{}[]",:0-9e.\u"#.utf8) + [0x00, 0x7F, 0xC3, 0xFF, 0xED, 0xA0]

  /// Applies a random number of mutations, from `rounds`.
  public static func mutate(
    _ bytes: inout [UInt8], rounds: ClosedRange<Int>, using rng: inout some RandomNumberGenerator
  ) {
    for _ in 0..<Int.random(in: rounds, using: &rng) where !bytes.isEmpty {
      let index = Int.random(in: 0..<bytes.count, using: &rng)
      switch Int.random(in: 0..<6, using: &rng) {
      case 0: bytes[index] = interesting.randomElement(using: &rng) ?? 0
      case 1: bytes.insert(interesting.randomElement(using: &rng) ?? 0, at: index)
      case 2: bytes.remove(at: index)
      case 3: bytes.insert(contentsOf: bytes[index..<min(bytes.count, index + 12)], at: index)
      case 4: bytes.removeSubrange(index...)
      default: bytes[index] = UInt8.random(in: 0...255, using: &rng)
      }
    }
  }
}
