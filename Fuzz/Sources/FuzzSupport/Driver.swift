#if canImport(Glibc)
  import Glibc
#endif

/// A fuzz target's function, as libFuzzer calls it.
public typealias FuzzTarget = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

// swift-format-ignore: AlwaysUseLowerCamelCase
// (libFuzzer's C entry point, named as libFuzzer names it.)
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
  _ argc: UnsafeMutablePointer<Int32>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
  _ target: FuzzTarget
) -> Int32

/// Runs libFuzzer's driver on `target` with the process's arguments (`-max_total_time=60`,
/// corpus folders, a crash input to replay), and exits with its status. SwiftPM gives every
/// executable a `main` of its own, so the target calls the driver rather than linking
/// libFuzzer's `main`.
public func runFuzzer(_ target: FuzzTarget) -> Never {
  var argc = CommandLine.argc
  var argv = CommandLine.unsafeArgv
  exit(LLVMFuzzerRunDriver(&argc, &argv, target))
}
