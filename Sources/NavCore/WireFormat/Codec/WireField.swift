/// The fields of one wire-format object, declared once, in the order the spec lists them (the
/// order they are read in, and listed in messages). Writing uses `canonicalOrder`, the same
/// fields sorted as RFC 8785 sorts keys, so no type spells its key order by hand.
protocol WireField: CaseIterable, RawRepresentable, Equatable, Sendable where RawValue == String {
  /// The fields sorted by the UTF-16 code units of their keys. Each type keeps it in a stored
  /// `static let` made with `sortedCanonically()`, so it is sorted once.
  static var canonicalOrder: [Self] { get }
  /// The fields by key, for reading; a stored `static let keys = WireNames<Self>()`.
  static var keys: WireNames<Self> { get }
}

extension WireField {
  /// The fields in RFC 8785 key order.
  static func sortedCanonically() -> [Self] {
    allCases.sorted { $0.rawValue.utf16.lexicographicallyPrecedes($1.rawValue.utf16) }
  }

  /// The field a key names, if any: far cheaper than the synthesized `init(rawValue:)`, which
  /// builds a string per case to compare.
  @inline(__always)
  static func named(_ key: String) -> Self? {
    keys.named(key)
  }

  /// The key as written: `"name"`, quoted, for messages.
  var quoted: String { "\"\(rawValue)\"" }
}
