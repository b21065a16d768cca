import BenchmarkProcesses
import Foundation

/// `wrk` (Debian's package), a load generator that is not ours, against the same collector:
/// 64 connections, each request a new session of 20 lines, plain JSON Lines (wrk's Lua cannot
/// gzip or sign). Unsigned uploads are all one client, the token, so this collector's per-client
/// share and rate are opened up for it; its figures cross-check the driver's at 64 devices (the
/// request rate and wrk's own HdrHistogram percentiles), they are not the collector's table.
enum WrkCrossCheck {
  struct Result: Codable {
    let seconds: Int
    let requestsPerSecond: Double
    let linesPerSecond: Double
    let p50: Double
    let p99: Double
    let non2xx: Int
  }

  static let connections = 64
  static let linesPerRequest = 20

  static func run(
    store: inout StoreUnderTest, navstore: NavstoreCommands, folder: URL, seconds: Int
  ) throws -> Result {
    let place = store.fresh()
    let token = try navstore.token(app: place.app, role: "ingest", database: place.database)
    let template = try SessionTemplate(events: linesPerRequest)
    let body = template.unsignedLines(session: "SESSIONPLACEHOLDER").joined()
    let script = folder.appendingPathComponent("upload.lua")
    try Data(lua(body: body, token: token).utf8).write(to: script)
    let collector = try CollectorProcess(
      navstore: navstore.navstore, database: place.database,
      options: LoadRunner.serveOptions + [
        "--max-open-per-client", "100000", "--max-open-per-app", "100000", "--rate", "1000000", "--burst", "1000000",
      ])
    defer { collector.stop() }
    let text = try Shell.tool(
      "wrk",
      [
        "-t", "2", "-c", "\(connections)", "-d", "\(seconds)s", "--latency", "-s", script.path,
        "\(collector.base)/v1/events",
      ], output: true)
    guard let requests = number(after: "Requests/sec:", in: text) else {
      throw LoadError("wrk said no request rate:\n\(text)")
    }
    // Every answered request stored a new session of 20 lines (none was a resend).
    let answered = Int(number(before: "requests in", in: text) ?? 0)
    let stored = try store.storedEvents(place.database, app: place.app, navstore: navstore)
    guard stored >= answered * linesPerRequest * 9 / 10 else {
      throw LoadError("wrk's \(answered) requests stored \(stored) events, not \(linesPerRequest) each")
    }
    return Result(
      seconds: seconds, requestsPerSecond: requests, linesPerSecond: requests * Double(linesPerRequest),
      p50: milliseconds(percentile: "50%", in: text) ?? -1, p99: milliseconds(percentile: "99%", in: text) ?? -1,
      non2xx: Int(number(after: "Non-2xx or 3xx responses:", in: text) ?? 0))
  }

  /// Each request a session of its own: the thread's number (given by `setup`, since every
  /// thread's Lua starts from the same random seed) and a counter in its id.
  static func lua(body: String, token: String) -> String {
    let quoted = body.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
      .replacingOccurrences(of: "\n", with: "\\n")
    return """
      wrk.method = "POST"
      wrk.headers["Content-Type"] = "application/x-ndjson"
      wrk.headers["Authorization"] = "Bearer \(token)"
      local template = "\(quoted)"
      local threads = 0
      function setup(thread)
        thread:set("number", threads)
        threads = threads + 1
      end
      local counter = 0
      request = function()
        counter = counter + 1
        local body = template:gsub("SESSIONPLACEHOLDER", "wrk-" .. number .. "-" .. counter)
        return wrk.format(nil, nil, nil, body)
      end

      """
  }

  static func number(after label: String, in text: String) -> Double? {
    guard let line = text.split(separator: "\n").first(where: { $0.contains(label) }) else { return nil }
    return line.components(separatedBy: label).last.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
  }

  /// The number just before `label` on its line (`12345 requests in 15.00s`).
  static func number(before label: String, in text: String) -> Double? {
    guard let line = text.split(separator: "\n").first(where: { $0.contains(label) }) else { return nil }
    let head = line.components(separatedBy: label).first ?? ""
    return head.split(separator: " ").last.flatMap { Double($0) }
  }

  /// A percentile line of `--latency` (`99%   12.34ms`), in milliseconds.
  static func milliseconds(percentile: String, in text: String) -> Double? {
    guard
      let line = text.split(separator: "\n").first(where: {
        $0.trimmingCharacters(in: .whitespaces).hasPrefix(percentile + " ")
      })
    else { return nil }
    let value = line.split(separator: " ").last.map(String.init) ?? ""
    for (unit, factor) in [("us", 0.001), ("ms", 1.0), ("s", 1_000.0)] where value.hasSuffix(unit) {
      return Double(value.dropLast(unit.count)).map { $0 * factor }
    }
    return nil
  }
}
