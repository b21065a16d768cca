import Foundation
import NavCore
@_spi(Internals) import NavPersistence
@_spi(Internals) import NavTools
import Synchronization

/// 8. Many sessions: import, verify and export of a store of N two-event sessions, at three
/// values of N, each in a child process so its own peak memory is read. Events arrive
/// interleaved, as merged device uploads do (every session's start, then every session's
/// push), the hardest order for the bounded head cache. Flat means: time per event and peak
/// memory the same at every N.
///
/// 9. Read latency beside a long import: a session's state read on an idle store, then the same
/// read from another thread while one import transaction writes, median of each.
enum FleetScenarios {
  static func manySessions(counts: [Int]) throws -> [Measurement] {
    var results: [Measurement] = []
    for sessions in counts {
      let file = FileManager.default.temporaryDirectory.appendingPathComponent("navstore-bench-fleet-\(sessions).jsonl")
        .path
      try writeInterleavedSessions(sessions, to: file)
      let store = freshStorePath("fleet-\(sessions)")
      let events = sessions * 2
      for (name, arguments) in [
        ("import", ["--child", "import", file, store]), ("verify", ["--child", "verify", store]),
        ("export", ["--child", "export", store]),
      ] {
        var peak = 0.0
        let seconds = try time { peak = try Footprint.peakMemory(arguments) }
        results.append(
          Measurement(
            scenario: "8 \(sessions / 1000)k sessions, \(name) per event", ours: seconds / Double(events),
            anchorName: "-",
            anchor: nil, unit: "s", rows: events, note: "child process, incl. start-up"))
        results.append(
          Measurement(
            scenario: "8 \(sessions / 1000)k sessions, \(name) peak", ours: peak, anchorName: "-", anchor: nil,
            unit: "MiB",
            rows: events, note: "VmHWM of the child"))
      }
      try? FileManager.default.removeItem(atPath: file)
      for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) }
    }
    return results
  }

  /// `sessions` sessions of two events, all starts first, then all pushes.
  static func writeInterleavedSessions(_ sessions: Int, to path: String) throws {
    let ids = try (0..<sessions).map { try SessionID("device-\($0)") }
    let events = (0..<2).lazy.flatMap { round in
      ids.lazy.map { id in
        AnyEvent(
          session: id, at: Timestamp(millisecondsSince1970: 1_795_000_000_000 + Int64(round * 1000)), origin: .app,
          operation: round == 0
            ? .start(.stack([.root(.string("home"), withNavigation: true)])) : .push(.string("detail")))
      }
    }
    try Footprint.writeJSONLines(events, to: path)
  }

  static func readLatencyDuringImport(sessions: Int) throws -> [Measurement] {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("navstore-bench-busy.jsonl").path
    try writeInterleavedSessions(sessions, to: file)
    defer { try? FileManager.default.removeItem(atPath: file) }
    let path = freshStorePath("busy")
    let store = try SessionStore(path: path)
    // The session read: a snapshot and 50 events after it.
    let reader = try Workload.make(count: 150)
    for event in reader.events { try store.append(event) }

    func readOnce() throws -> Double { try time { _ = try store.state(of: reader.session) } }
    var idle: [Double] = []
    for _ in 0..<200 { idle.append(try readOnce()) }

    let importing = Mutex(true)
    let failure = Mutex<String?>(nil)
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      do {
        guard let handle = FileHandle(forReadingAtPath: file) else { throw BenchmarkError("cannot read \(file)") }
        try store.importJSONLines(from: LineReader(handle: handle))
      } catch {
        failure.withLock { $0 = "\(error)" }
      }
      importing.withLock { $0 = false }
      done.signal()
    }
    var busy: [Double] = []
    let importSeconds = try time {
      while importing.withLock({ $0 }) {
        busy.append(try readOnce())
        usleep(2_000)
      }
      done.wait()
    }
    if let failure = failure.withLock({ $0 }) { throw BenchmarkError("the import failed: \(failure)") }
    return [
      Measurement(
        scenario: "9 read while importing", ours: median(busy), anchorName: "idle store", anchor: median(idle),
        unit: "s",
        rows: busy.count,
        note:
          "state(of:) during a \(sessions * 2)-event import of \(String(format: "%.1f", importSeconds)) s; median of \(busy.count) reads"
      )
    ]
  }

  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
  }
}
