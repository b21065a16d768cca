import Foundation
import NavCore
@_spi(Internals) import NavPersistence
@_spi(Internals) import NavTools
import RawSQLiteAnchor

/// 6. Bytes on disk per event, and the peak memory (max RSS) of import and export, each run in a
/// child process at two sizes, to show memory does not grow with the table.
enum Footprint {
  static func measure(storePath: String, workload: Workload) throws -> [Measurement] {
    let checkpoint = raw_checkpoint(storePath)
    guard checkpoint == 0 else { throw BenchmarkError("cannot checkpoint \(storePath): SQLite error \(checkpoint)") }
    let size = (try FileManager.default.attributesOfItem(atPath: storePath)[.size] as? Int) ?? 0
    var results = [
      Measurement(
        scenario: "6 bytes on disk per event", ours: Double(size) / Double(workload.events.count), anchorName: "-",
        anchor: nil,
        unit: "bytes", rows: workload.events.count, note: "snapshots every 100 events included")
    ]
    for count in [workload.events.count / 10, workload.events.count] {
      let file = FileManager.default.temporaryDirectory.appendingPathComponent("navstore-bench-\(count).jsonl").path
      try writeJSONLines(workload.events.prefix(count), to: file)
      let store = freshStorePath("footprint-\(count)")
      let importPeak = try peakMemory(["--child", "import", file, store])
      let exportPeak = try peakMemory(["--child", "export", store])
      results.append(
        Measurement(
          scenario: "6 peak memory, import", ours: importPeak, anchorName: "-", anchor: nil, unit: "MiB", rows: count,
          note: "JSON Lines file, one transaction"))
      results.append(
        Measurement(
          scenario: "6 peak memory, export", ours: exportPeak, anchorName: "-", anchor: nil, unit: "MiB", rows: count,
          note: "events to CSV"))
      try? FileManager.default.removeItem(atPath: file)
    }
    return results
  }

  static func writeJSONLines(_ events: some Sequence<AnyEvent>, to path: String) throws {
    guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path)
    else {
      throw BenchmarkError("cannot write \(path)")
    }
    var buffer: [UInt8] = []
    for event in events {
      buffer.append(contentsOf: try WireFormat.canonicalString(event).utf8)
      buffer.append(0x0A)
      if buffer.count > 1 << 20 {
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
      }
    }
    try handle.write(contentsOf: buffer)
    try handle.close()
  }

  /// Runs this benchmark binary as a child with `arguments` and returns its peak resident
  /// memory in MiB, as the child itself reads it (`VmHWM`): a spawned child's `ru_maxrss` can
  /// include the parent's footprint, which here holds the whole workload.
  static func peakMemory(_ arguments: [String]) throws -> Double {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0, let kibibytes = Double(text.trimmingCharacters(in: .whitespacesAndNewlines))
    else {
      throw BenchmarkError("child \(arguments) failed: \(text)")
    }
    return kibibytes / 1024
  }

  /// This process's peak resident memory in KiB, from /proc/self/status.
  static func ownPeakKibibytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
  }
}

/// What the measured child processes do.
enum Children {
  static func run(_ arguments: [String]) throws {
    switch arguments.first {
    case "import":
      guard arguments.count == 3, let handle = FileHandle(forReadingAtPath: arguments[1]) else {
        throw BenchmarkError("usage")
      }
      let store = try SessionStore(path: arguments[2])
      try store.importJSONLines(from: LineReader(handle: handle))
    case "verify":
      guard arguments.count == 2 else { throw BenchmarkError("usage") }
      let store = try SessionStore(path: arguments[1], options: StoreOptions(access: .readOnly))
      let summary = try store.verify(nil) { _ in }
      guard summary.isIntact else {
        throw BenchmarkError("the store does not verify: \(String(describing: summary.firstFailure))")
      }
    case "export":
      guard arguments.count == 2 else { throw BenchmarkError("usage") }
      let store = try SessionStore(path: arguments[1], options: StoreOptions(access: .readOnly))
      try Scenarios.exportEventsCSV(store, to: "/dev/null")
    case "workload":
      // The workload's first COUNT events as JSON Lines: the input of the callgrind runs.
      guard arguments.count == 3, let count = Int(arguments[1]) else { throw BenchmarkError("usage") }
      let workload = try Workload.make(count: count)
      try Footprint.writeJSONLines(workload.events[...], to: arguments[2])
    default:
      throw BenchmarkError("unknown child \(arguments)")
    }
    print(Footprint.ownPeakKibibytes())
  }
}
