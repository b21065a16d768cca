import Foundation
import NavTestSupport
import Testing

/// The upload fuzz target's seeds and findings, replayed through its properties on every test
/// run (`fuzz-upload` built without the Fuzzing trait replays the files it is given): a change
/// to the collector's parsing or outcomes that breaks one fails here, not only under the fuzzer.
@Suite struct UploadFuzzCorpusTests {
  static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus/upload")

  @Test func theSeedsKeepEveryProperty() throws {
    let seeds = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path)
    #expect(seeds.count >= 10)
    let process = Process()
    process.executableURL = BuiltExecutable.url(named: "fuzz-upload")
    process.arguments = [Self.corpus.path]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(said.contains("fuzz-upload: \(seeds.count) inputs replayed, every property held"))
  }
}
