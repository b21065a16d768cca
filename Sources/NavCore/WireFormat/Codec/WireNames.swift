/// The names of a wire-format vocabulary (a type's fields, the operations), looked up by the
/// text read: bucketed by first byte, so a lookup compares against one or two short names
/// instead of every one. Readers look up every member of every object, so this is hot.
struct WireNames<Name: CaseIterable & RawRepresentable<String> & Sendable>: Sendable {
  /// The names sharing each first byte (ASCII); names are short and stored inline.
  private let buckets: [[(text: String, name: Name)]]

  init() {
    var buckets = Array(repeating: [(text: String, name: Name)](), count: 128)
    for name in Name.allCases {
      guard let first = name.rawValue.utf8.first, first < 128 else { continue }
      buckets[Int(first)].append((name.rawValue, name))
    }
    self.buckets = buckets
  }

  /// The name `text` spells, if any.
  @inline(__always)
  func named(_ text: String) -> Name? {
    guard let first = text.utf8.first, first < 128 else { return nil }
    for candidate in buckets[Int(first)] where candidate.text == text { return candidate.name }
    return nil
  }
}
