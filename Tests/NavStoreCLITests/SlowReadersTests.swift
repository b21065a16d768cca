import Foundation
import NavCore
import NavTestSupport
import Testing

/// Readers that take an export a chunk a second, as a support engineer's script on a slow link
/// does, against a live `navstore serve`: each costs the server a suspended task, not a thread;
/// they count against the reads' pool (the next one past it is a 503 with `Retry-After`) for as
/// long as they read; and devices' uploads meanwhile are answered as fast as without them.
@Suite(.waitsOnProcesses) struct SlowReadersTests: CollectorSuite {
  let folder: TemporaryFolder

  init() throws {
    folder = try TemporaryFolder()
  }

  /// The server's threads now (`Threads:` of `/proc/PID/status`).
  static func threads(of process: Process) -> Int {
    let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("Threads:") } ?? ""
    return Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) ?? -1
  }

  /// The CPU time the server has used so far, in ticks of 10 ms (`utime` and `stime` of
  /// `/proc/PID/stat`).
  static func cpuTicks(of process: Process) -> Int {
    let stat = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)) ?? ""
    // The fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
    let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
    guard fields.count > 12 else { return 0 }
    return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
  }

  /// Waits (up to a minute) until the server is idle: under 5% of a core over half a second.
  static func waitUntilIdle(_ process: Process) {
    for _ in 0..<120 {
      let before = cpuTicks(of: process)
      Thread.sleep(forTimeInterval: 0.5)
      if cpuTicks(of: process) - before <= 2 { return }
    }
  }

  /// The time each of `count` uploads took to be acknowledged, one after another `pause`
  /// seconds apart, each a new session of ten events.
  func uploadTimes(
    _ count: Int, named prefix: String, to server: CollectorProcess, token: String, pause: Double = 0.05
  ) throws -> [Double] {
    try (0..<count).map { index in
      Thread.sleep(forTimeInterval: pause)
      let lines = SessionLines.make(prefix: "\(prefix)-\(index)", sessions: 1, events: 10)
      let started = ContinuousClock.now
      let answer = try DrillHTTP.post(
        server.url + "/v1/events", token: token, body: Data((lines.joined(separator: "\n") + "\n").utf8), timeout: 30)
      let seconds = (ContinuousClock.now - started).inSeconds
      #expect(answer.status == 200, "upload \(prefix)-\(index): \(answer.status) \(answer.text)")
      return seconds
    }
  }

  /// The 99th percentile of `times` (the largest but one in a hundred).
  static func p99(_ times: [Double]) -> Double {
    let sorted = times.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
  }

  @Test func sixtyFourSlowExportReadersHoldNoThreadCountAgainstTheCapAndLeaveUploadsFast() throws {
    let ingest = try token("ingest")
    let reader = try token("read")
    // About 3 MiB of CSV: far more than a socket's buffers hold, so every export stays open
    // while its reader takes a chunk a second.
    let stored = folder.url.appendingPathComponent("stored.jsonl")
    try (SessionLines.make(prefix: "stored", sessions: 200, events: 60).joined(separator: "\n") + "\n")
      .write(to: stored, atomically: true, encoding: .utf8)
    #expect(try navstore(["import", stored.path, "--db", "collector.sqlite", "--app", "drill"]).status == 0)
    let server = try serve([
      "--max-open-reads", "64", "--max-open-per-client", "64", "--max-open-per-app", "64", "--rate", "100000",
      "--burst", "100000",
      "--request-timeout", "60",
    ])
    _ = try uploadTimes(10, named: "warm", to: server, token: ingest, pause: 0)
    let alone = try uploadTimes(100, named: "alone", to: server, token: ingest)
    let threadsAlone = Self.threads(of: server.process)

    let request =
      "GET /v1/export/events?format=csv HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(reader)\r\n\r\n"
    var readers: [RawConnection] = []
    for index in 0..<64 {
      let connection = try RawConnection(port: server.port, receiveBuffer: 4096)
      #expect(connection.send(request), "reader \(index) sent its request")
      readers.append(connection)
    }
    // Every reader has its answer under way: a status line and the CSV header.
    for (index, connection) in readers.enumerated() {
      let first = connection.receive(upTo: 16_384, within: 10)
      #expect(
        String(decoding: first.prefix(64), as: UTF8.self).hasPrefix("HTTP/1.1 200"),
        "reader \(index) is answered")
    }
    // The 65th finds the reads' pool full, for as long as the 64 read.
    let refused = try DrillHTTP.get(server.url + "/v1/export/events?format=csv", token: reader, timeout: 10)
    #expect(refused.status == 503, "the 65th reader: \(refused.status) \(refused.text.prefix(200))")
    #expect(refused.header("Retry-After") != nil)

    // Each export has filled its connection's buffers (the server then waits on every one).
    // From here, windows of uploads while the readers are idle and while they read, in turn, so
    // that whatever else the machine does weighs on both alike: while they read, each takes a
    // chunk a second, one reader after another across the second.
    Self.waitUntilIdle(server.process)
    let reading = Protected(false)
    let running = Protected(true)
    let readersDone = DispatchSemaphore(value: 0)
    let pool = Protected(readers)
    let received = Protected(0)
    Thread.detachNewThread {
      while running.withLock({ $0 }) {
        for connection in pool.withLock({ $0 }) {
          if reading.withLock({ $0 }) {
            let chunk = connection.receive(upTo: 16_384, within: 0.005)
            received.withLock { $0 += chunk.count }
          }
          Thread.sleep(forTimeInterval: 1.0 / 64)
        }
      }
      readersDone.signal()
    }
    var idle: [Double] = []
    var during: [Double] = []
    for round in 0..<5 {
      reading.withLock { $0 = false }
      idle += try uploadTimes(20, named: "idle-\(round)", to: server, token: ingest)
      reading.withLock { $0 = true }
      during += try uploadTimes(20, named: "reading-\(round)", to: server, token: ingest)
    }
    let threadsDuring = Self.threads(of: server.process)
    let stillRefused = try DrillHTTP.get(server.url + "/v1/export/events?format=csv", token: reader, timeout: 10)
    running.withLock { $0 = false }
    readersDone.wait()
    #expect(stillRefused.status == 503, "the 64 still read, and still fill the pool")
    // Every reader took a chunk of 16 KiB in each window of reading, at least.
    #expect(received.withLock { $0 } >= 64 * 16_384 * 5, "the readers read: \(received.withLock { $0 }) bytes")

    // Letting them go (their connections closed) gives their places back.
    readers.removeAll()
    pool.withLock { $0.removeAll() }
    var answered = false
    for _ in 0..<50 where !answered {
      let export = try DrillHTTP.get(
        server.url + "/v1/export/sessions?format=csv", token: reader, timeout: 10)
      answered = export.status == 200
      if !answered { Thread.sleep(forTimeInterval: 0.1) }
    }
    #expect(answered, "a reader is served once the 64 have gone")

    // 64 exports under way hold no thread each: the count is flat (a few of the runtime's own
    // may come and go). With a thread parked per export, it would be 64 more.
    #expect(
      threadsDuring <= threadsAlone + 8, "threads: \(threadsAlone) before the readers, \(threadsDuring) with them")
    // Uploads are as fast while the readers read as while they do not (p99 within 2x; a floor
    // of 20 ms keeps a debug build's jitter on a busy machine from deciding).
    let baseline = Self.p99(idle)
    let withReaders = Self.p99(during)
    let figures =
      "upload p99: \(withReaders * 1000) ms while 64 slow readers read, \(baseline * 1000) ms while they wait, "
      + "\(Self.p99(alone) * 1000) ms before they came"
    #expect(withReaders <= max(2 * baseline, baseline + 0.020), "\(figures)")
    #expect(server.stop(SIGTERM) == 0)
  }
}
