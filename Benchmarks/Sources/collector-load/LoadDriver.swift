import AsyncHTTPClient
import Foundation
import Histogram
import NIOCore
import NIOHTTP1

/// Sends simulated devices' uploads to a collector over loopback and times each answer.
///
/// Each device is a task with its uploads in order. **Closed** (`pace: nil`): a device sends its
/// next batch as soon as the last is acknowledged, the devices of a release coming online at
/// once. **Paced**: the devices together send `pace` requests a second, each at its appointed
/// time, and a latency counts from that time, not from when a late device got round to it (no
/// coordinated omission). A 429 or 503 is waited out for its `Retry-After`, as the uploader
/// does, and the batch sent again; each answer's latency is recorded, refusals included, so a
/// collector that answers overload quickly shows it.
struct LoadDriver {
  let client: HTTPClient
  let base: String
  let ingestToken: String

  /// What one run saw.
  struct Outcome {
    /// Each answer's latency, refusals included (microseconds).
    var latency = Histogram<UInt64>(highestTrackableValue: 120_000_000, numberOfSignificantValueDigits: .three)
    /// Each batch's time from its first sending (or its appointed time) to its 200, refusals'
    /// waits included (microseconds).
    var untilAcknowledged = Histogram<UInt64>(
      highestTrackableValue: 120_000_000, numberOfSignificantValueDigits: .three)
    /// Answers by status; transport failures under 0.
    var statuses: [Int: Int] = [:]
    /// 429 and 503 answers without a `Retry-After`.
    var refusalsWithoutRetryAfter = 0
    /// Lines the collector said it stored (`accepted` plus `duplicates`).
    var acknowledgedLines = 0
    var rejectedLines = 0
    var seconds = 0.0

    mutating func add(_ other: Outcome) {
      latency.add(other.latency)
      untilAcknowledged.add(other.untilAcknowledged)
      statuses.merge(other.statuses, uniquingKeysWith: +)
      refusalsWithoutRetryAfter += other.refusalsWithoutRetryAfter
      acknowledgedLines += other.acknowledgedLines
      rejectedLines += other.rejectedLines
    }
  }

  /// Every device's uploads sent; returns once each is acknowledged.
  func run(_ devices: SimulatedDevices, pace: Double? = nil) async throws -> Outcome {
    let start = ContinuousClock.now
    let count = devices.uploads.count
    var total = Outcome()
    try await withThrowingTaskGroup(of: Outcome.self) { group in
      for (device, uploads) in devices.uploads.enumerated() {
        group.addTask {
          var outcome = Outcome()
          for (number, upload) in uploads.enumerated() {
            var appointed = ContinuousClock.now
            if let pace {
              // Device d sends its k-th batch at (k * devices + d) / pace seconds from the start.
              appointed = start + .seconds(Double(number * count + device) / pace)
              try await Task.sleep(until: appointed, clock: .continuous)
            }
            try await send(upload, appointedAt: appointed, into: &outcome)
          }
          return outcome
        }
      }
      for try await outcome in group { total.add(outcome) }
    }
    total.seconds = (ContinuousClock.now - start).seconds
    return total
  }

  /// One upload, sent again after each refusal's `Retry-After` until it is answered otherwise.
  private func send(
    _ upload: SimulatedDevices.Upload, appointedAt appointed: ContinuousClock.Instant, into outcome: inout Outcome
  )
    async throws
  {
    var request = HTTPClientRequest(url: "\(base)/v1/events")
    request.method = .POST
    request.headers.add(name: "Authorization", value: "Bearer \(ingestToken)")
    request.headers.add(name: "Content-Type", value: "application/x-ndjson")
    request.headers.add(name: "Content-Encoding", value: "gzip")
    request.headers.add(name: "NavStore-Device-Key", value: upload.deviceKey)
    request.headers.add(name: "NavStore-Signature", value: upload.signature)
    request.headers.add(name: "X-Forwarded-For", value: upload.address)
    request.body = .bytes(ByteBuffer(bytes: upload.body))
    var sentAt = appointed
    for _ in 0..<1_000 {
      var status = -1
      var wait = 1.0
      do {
        let response = try await client.execute(request, timeout: .seconds(60))
        let answer = try await response.body.collect(upTo: 1 << 20)
        status = Int(response.status.code)
        if status == 429 || status == 503 {
          if let seconds = response.headers.first(name: "Retry-After").flatMap(Double.init) {
            wait = seconds
          } else {
            outcome.refusalsWithoutRetryAfter += 1
          }
        } else if status == 200 {
          let object = try JSONSerialization.jsonObject(with: Data(answer.readableBytesView)) as? [String: Any]
          outcome.acknowledgedLines += (object?["accepted"] as? Int ?? 0) + (object?["duplicates"] as? Int ?? 0)
          outcome.rejectedLines += (object?["rejected"] as? [Any])?.count ?? 0
        }
      } catch {
        // The connection failed (status stays -1): sent again after a second.
      }
      let elapsed = ContinuousClock.now - sentAt
      _ = outcome.latency.record(UInt64(max(1, elapsed.microseconds)))
      outcome.statuses[status, default: 0] += 1
      if status == 200 {
        _ = outcome.untilAcknowledged.record(UInt64(max(1, (ContinuousClock.now - appointed).microseconds)))
        return
      }
      if status != 429 && status != 503 && status != -1 {
        throw LoadError("an upload was answered \(status)")
      }
      try await Task.sleep(for: .seconds(wait))
      sentAt = ContinuousClock.now
    }
    throw LoadError("an upload was refused 1,000 times")
  }
}

/// Support engineers streaming the `events` export, each with a read token of its own, over and
/// over until told to stop.
struct ExportReaders {
  let client: HTTPClient
  let base: String
  let tokens: [String]

  final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false
    private(set) var bytes = 0
    private(set) var exports = 0
    private(set) var failures = 0

    var isStopped: Bool { lock.withLock { stopped } }
    func stop() { lock.withLock { stopped = true } }
    func add(bytes count: Int) { lock.withLock { bytes += count } }
    func finished(_ succeeded: Bool) { lock.withLock { if succeeded { exports += 1 } else { failures += 1 } } }
  }

  /// Starts the readers in `group`; they stop once `tally` is stopped.
  func start(in group: inout ThrowingTaskGroup<Void, any Error>, tally: Tally) {
    for token in tokens {
      group.addTask {
        while !tally.isStopped {
          var request = HTTPClientRequest(url: "\(base)/v1/export/events?format=jsonl")
          request.headers.add(name: "Authorization", value: "Bearer \(token)")
          do {
            let response = try await client.execute(request, timeout: .seconds(600))
            for try await chunk in response.body {
              tally.add(bytes: chunk.readableBytes)
              if tally.isStopped { break }
            }
            tally.finished(response.status == .ok)
            if response.status != .ok { try await Task.sleep(for: .milliseconds(200)) }
          } catch {
            tally.finished(false)
            try await Task.sleep(for: .milliseconds(200))
          }
        }
      }
    }
  }
}

extension Duration {
  var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
  var microseconds: Int64 { components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000 }
}
