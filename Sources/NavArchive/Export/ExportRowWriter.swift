import NavCore
@_spi(Internals) import NavHistory

/// Where an export's row goes, value by value, in column order: into `ExportRow` values (the
/// library's `export`) or straight into CSV bytes (the command line's stream). A table's columns
/// are then produced by one function for both, so the two can never disagree.
package protocol ExportRowWriter {
  mutating func text(_ text: String)
  /// Text as SQLite stored it (a stored operation or cause), not yet a `String`.
  mutating func storedText(_ utf8: UnsafeBufferPointer<UInt8>)
  mutating func integer(_ value: Int64)
  mutating func time(_ time: Timestamp)
  /// A hash-chain value, written as lowercase hex.
  mutating func hashHex(_ bytes: UnsafeRawBufferPointer)
  /// A flag, written as `true` or `false`.
  mutating func boolean(_ flag: Bool)
  mutating func null()
}

/// Collects a row as `ExportValue`s.
package struct ExportValuesWriter: ExportRowWriter {
  package var values: [ExportValue] = []

  /// An empty row.
  package init() {}

  package mutating func text(_ text: String) { values.append(.text(text)) }
  // Invalid UTF-8 is repaired as reading the column as a `String` repairs it.
  package mutating func storedText(_ utf8: UnsafeBufferPointer<UInt8>) {
    values.append(.text(String(decoding: utf8, as: UTF8.self)))
  }
  package mutating func integer(_ value: Int64) { values.append(.integer(value)) }
  package mutating func time(_ time: Timestamp) { values.append(.time(time)) }
  package mutating func hashHex(_ bytes: UnsafeRawBufferPointer) { values.append(.text(HashChain.hex(Array(bytes)))) }
  package mutating func boolean(_ flag: Bool) { values.append(.boolean(flag)) }
  package mutating func null() { values.append(.null) }
}

/// Writes rows as RFC 4180 CSV into a buffer the export flushes in chunks: the same bytes
/// `ExportEncoding` writes for the same values, with no `String` or array per row.
package struct CSVRowWriter: ExportRowWriter {
  package var bytes: [UInt8] = []
  private var fieldsInRow = 0

  package init(capacity: Int) {
    bytes.reserveCapacity(capacity)
  }

  /// Ends the row with its line break.
  package mutating func endRow() {
    bytes.append(0x0D)
    bytes.append(0x0A)
    fieldsInRow = 0
  }

  private mutating func separate() {
    if fieldsInRow > 0 { bytes.append(UInt8(ascii: ",")) }
    fieldsInRow += 1
  }

  package mutating func text(_ text: String) {
    separate()
    ExportEncoding.appendCSVField(text, to: &bytes)
  }

  package mutating func storedText(_ utf8: UnsafeBufferPointer<UInt8>) {
    separate()
    ExportEncoding.appendCSVField(storedText: utf8, to: &bytes)
  }

  package mutating func integer(_ value: Int64) {
    separate()
    ExportEncoding.appendCSVField(.integer(value), to: &bytes)
  }

  package mutating func time(_ time: Timestamp) {
    separate()
    ExportEncoding.appendCSVField(.time(time), to: &bytes)
  }

  package mutating func hashHex(_ bytes: UnsafeRawBufferPointer) {
    separate()
    HashChain.appendHex(bytes, to: &self.bytes)
  }

  package mutating func boolean(_ flag: Bool) {
    separate()
    ExportEncoding.appendCSVField(.boolean(flag), to: &bytes)
  }

  package mutating func null() {
    separate()
  }
}
