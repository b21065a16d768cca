/// A property of the code under test that an input broke: the fuzzer records the input as a
/// crash, and the message says which property. Trapping is the point here (libFuzzer keeps
/// inputs that crash); this package is never part of the product.
public func violated(_ property: String, file: StaticString = #file, line: UInt = #line) -> Never {
  fatalError("fuzz property violated: \(property)", file: file, line: line)
}

/// The fuzzer's input as a buffer.
public func input(_ data: UnsafePointer<UInt8>?, _ size: Int) -> UnsafeBufferPointer<UInt8> {
  UnsafeBufferPointer(start: data, count: data == nil ? 0 : size)
}
