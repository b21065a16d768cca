import FuzzSupport
@_spi(Internals) import NavCore

/// An event line as the import reads it: decoded, or refused with an error; when accepted, its
/// canonical bytes decode to the same event, and are a fixed point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEventLine(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = input(data, size)
  guard let event = try? WireFormat.decode(AnyEvent.self, from: bytes) else { return 0 }
  let canonical: [UInt8]
  do {
    canonical = try WireFormat.canonicalBytes(event)
  } catch {
    return 0  // an event the format reads but cannot write (a time past 9999) is refused by the store
  }
  guard let again = try? WireFormat.decode(AnyEvent.self, from: canonical) else {
    violated("canonical bytes do not decode: \(String(decoding: canonical, as: UTF8.self))")
  }
  guard again == event else { violated("canonical bytes decode to another event") }
  guard (try? WireFormat.canonicalBytes(again)) == canonical else { violated("canonical bytes are not a fixed point") }
  return 0
}
