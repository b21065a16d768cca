import NavJSON

/// Writes wire-format values straight to their RFC 8785 bytes: no `JSONValue` tree and no
/// `Codable` containers in between. The store encodes every event it appends (for the hash and
/// the stored operation), so this is its hot path.
///
/// Objects are written field by field in `canonicalOrder`, which for the format's ASCII keys is
/// byte order; a failure (an integer a double cannot hold, a time outside the years 0000 to
/// 9999) names the field it happened in.
struct CanonicalWriter {
  var bytes: [UInt8] = []
  /// The key of the member being written, held back until its value's first byte: a field
  /// whose writer writes nothing (absent, or at its default) leaves no trace.
  private var pendingKey: PendingKey?

  private struct PendingKey {
    var name: String
    var needsComma: Bool
  }

  init(capacity: Int = 128) {
    bytes.reserveCapacity(capacity)
  }

  /// Writes the held-back key, if any, before a value. Every value writer calls it first.
  @inline(__always)
  private mutating func startValue() {
    guard let key = pendingKey else { return }
    pendingKey = nil
    if key.needsComma { bytes.append(UInt8(ascii: ",")) }
    bytes.append(UInt8(ascii: "\""))
    var name = key.name  // keys are short ASCII strings, stored inline: no escaping, no copy
    name.withUTF8 { bytes.append(contentsOf: $0) }
    bytes.append(UInt8(ascii: "\""))
    bytes.append(UInt8(ascii: ":"))
  }

  /// An object of `Field`'s fields in canonical order. `member` writes a field's value, or
  /// nothing to leave the field out (absent, or at its default); the key is written only when
  /// a value is.
  ///
  /// When fields cannot be written, the one reported is the first in `Field`'s declaration
  /// order, the order values are read in, so both directions name the same field.
  @inline(__always)
  mutating func object<Field: WireField>(
    _ fields: Field.Type, _ member: (inout CanonicalWriter, Field) throws(WireFailure) -> Void
  ) throws(WireFailure) {
    startValue()
    bytes.append(UInt8(ascii: "{"))
    var written = false
    var firstFailure: (rank: Int, failure: WireFailure)?
    for field in Field.canonicalOrder {
      pendingKey = PendingKey(name: field.rawValue, needsComma: written)
      do {
        try member(&self, field)
      } catch {
        let rank =
          Field.allCases.firstIndex(of: field).map { Field.allCases.distance(from: Field.allCases.startIndex, to: $0) }
          ?? Int.max
        if rank < firstFailure?.rank ?? Int.max { firstFailure = (rank, error.inside(field.rawValue)) }
      }
      if pendingKey == nil { written = true }
      pendingKey = nil
    }
    if let firstFailure { throw firstFailure.failure }
    bytes.append(UInt8(ascii: "}"))
  }

  /// `[a,b,...]`, a failure placed under the element's index.
  @inline(__always)
  mutating func array<Element>(
    _ elements: [Element], _ write: (inout CanonicalWriter, Element) throws(WireFailure) -> Void
  ) throws(WireFailure) {
    startValue()
    bytes.append(UInt8(ascii: "["))
    for (index, element) in elements.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      do {
        try write(&self, element)
      } catch {
        throw error.inside(index: index)
      }
    }
    bytes.append(UInt8(ascii: "]"))
  }

  mutating func string(_ string: String) {
    startValue()
    CanonicalJSON.writeString(string, to: &bytes)
  }

  mutating func bool(_ bool: Bool) {
    startValue()
    bytes.append(contentsOf: (bool ? "true" : "false").utf8)
  }

  /// An integer, as the JSON number model (a double) holds it; one a double would round is
  /// refused, so that what is written reads back as the same value.
  mutating func integer(_ value: Int) throws(WireFailure) {
    guard let double = Double(exactly: value) else {
      throw WireFailure("integer \(value) cannot be stored exactly as a JSON number (a double)")
    }
    startValue()
    CanonicalJSON.writeNumber(double, to: &bytes)
  }

  mutating func timestamp(_ time: Timestamp) throws(WireFailure) {
    guard (Timestamp.earliest...Timestamp.latest).contains(time.millisecondsSince1970) else {
      throw WireFailure("the time is outside the years 0000 to 9999")
    }
    startValue()
    bytes.append(UInt8(ascii: "\""))
    time.appendRFC3339(to: &bytes)
    bytes.append(UInt8(ascii: "\""))
  }

  /// Any JSON value, canonically (a cause, an untyped screen).
  mutating func json(_ value: JSONValue) {
    startValue()
    CanonicalJSON.write(value, to: &bytes)
  }

  /// Bytes already canonical (an operation written once and kept).
  mutating func canonical(_ written: [UInt8]) {
    startValue()
    bytes.append(contentsOf: written)
  }
}
