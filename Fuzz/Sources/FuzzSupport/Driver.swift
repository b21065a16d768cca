import Foundation

/// A fuzz target's function, as libFuzzer calls it.
public typealias FuzzTarget = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

#if Fuzzing
// swift-format-ignore: AlwaysUseLowerCamelCase
// (libFuzzer's C entry point, named as libFuzzer names it.)
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
  _ argc: UnsafeMutablePointer<Int32>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
  _ target: FuzzTarget
) -> Int32
#endif

/// Built with the Fuzzing trait and `-sanitize=fuzzer` (Fuzz/run.sh), runs libFuzzer's driver on
/// `target` with the process's arguments (`-max_total_time=60`, corpus folders, a crash input to
/// replay), and exits with its status: SwiftPM gives every executable a `main` of its own, so
/// the target calls the driver rather than linking libFuzzer's `main`. Otherwise replays each
/// file named, and each file in each folder named, through `target`, once.
public func runFuzzer(_ target: FuzzTarget) -> Never {
  #if Fuzzing
  var argc = CommandLine.argc
  var argv = CommandLine.unsafeArgv
  exit(LLVMFuzzerRunDriver(&argc, &argv, target))
  #else
  let name = (CommandLine.arguments.first.map { ($0 as NSString).lastPathComponent }) ?? "fuzz"
  var replayed = 0
  for path in CommandLine.arguments.dropFirst() {
    let files =
      (try? FileManager.default.contentsOfDirectory(atPath: path))?.sorted().map { "\(path)/\($0)" } ?? [path]
    for file in files {
      guard let bytes = FileManager.default.contents(atPath: file) else {
        FileHandle.standardError.write(Data("\(name): cannot read \(file)\n".utf8))
        exit(2)
      }
      _ = bytes.withUnsafeBytes { target($0.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.count) }
      replayed += 1
    }
  }
  print("\(name): \(replayed) inputs replayed, every property held")
  exit(0)
  #endif
}
