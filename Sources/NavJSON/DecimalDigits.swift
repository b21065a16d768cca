/// Integers written as decimal digits straight into a byte buffer.
///
/// Canonical JSON and CSV exports write integers by the million; `String(value)` followed by a
/// copy of its UTF-8 allocates a string for each one.
package enum DecimalDigits {
  /// Appends the digits of `value`, with a `-` when it is negative. Inlinable: the model's
  /// canonical writer calls it for every integer it writes.
  @inlinable package static func append(_ value: Int64, to output: inout [UInt8]) {
    if value < 0 { output.append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    guard magnitude >= 10 else {
      output.append(UInt8(ascii: "0") + UInt8(magnitude))
      return
    }
    var reversed: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 24 digits, on the stack
    let count = withUnsafeMutableBytes(of: &reversed) { digits -> Int in
      var count = 0
      while magnitude > 0 {
        digits[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
        count += 1
      }
      return count
    }
    withUnsafeBytes(of: &reversed) { digits in
      for index in stride(from: count - 1, through: 0, by: -1) { output.append(digits[index]) }
    }
  }
}
