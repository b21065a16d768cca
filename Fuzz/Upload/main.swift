import Foundation

// Built with the Fuzzing trait and -sanitize=fuzzer (Fuzz/run.sh), libFuzzer's driver runs the
// target; otherwise the files and folders named are replayed through it, one input each.
#if Fuzzing
  @_silgen_name("LLVMFuzzerRunDriver")
  private func runDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ target: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
  ) -> Int32

  var argc = CommandLine.argc
  var argv = CommandLine.unsafeArgv
  exit(runDriver(&argc, &argv, fuzzUpload))
#else
  var replayed = 0
  for path in CommandLine.arguments.dropFirst() {
    let files =
      (try? FileManager.default.contentsOfDirectory(atPath: path))?.sorted().map { "\(path)/\($0)" } ?? [path]
    for file in files {
      guard let bytes = FileManager.default.contents(atPath: file) else {
        FileHandle.standardError.write(Data("fuzz-upload: cannot read \(file)\n".utf8))
        exit(2)
      }
      _ = bytes.withUnsafeBytes { fuzzUpload($0.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.count) }
      replayed += 1
    }
  }
  print("fuzz-upload: \(replayed) inputs replayed, every property held")
#endif
