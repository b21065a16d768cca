import FuzzSupport
@_spi(Internals) import NavCore
import NavJSON

/// The strict JSON parser and the canonical writer: whatever parses writes canonical text that
/// parses to the same value, and canonical text is a fixed point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = input(data, size)
  guard let value = try? JSONParser.parse(bytes) else { return 0 }
  let canonical = value.canonicalString
  guard let again = try? JSONParser.parse(Array(canonical.utf8)) else {
    violated("canonical text does not parse: \(canonical)")
  }
  guard again == value else { violated("canonical text parses to another value: \(canonical)") }
  guard again.canonicalString == canonical else { violated("canonical text is not a fixed point: \(canonical)") }
  return 0
}
