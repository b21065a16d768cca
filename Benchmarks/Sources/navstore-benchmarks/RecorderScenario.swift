import Foundation
@_spi(Internals) import NavCore
@_spi(Internals) import NavPersistence
@_spi(Internals) import NavTools

extension Scenarios {
  /// 7. What one `NavigationRecorder.record` call costs the app's thread, against recording
  /// the same change synchronously (`SessionStore.record(session:from:to:)`, which returns once
  /// the change is committed). Each side records the workload's states into a fresh store;
  /// the sides run in turn, `pairs` times, and each figure is the median per call. Also shows
  /// how long `flush()` then takes to make everything durable.
  static func recordCall(_ workload: Workload, pairs: Int) async throws -> [Measurement] {
    var states: [AnyCoordinator] = []
    var state: AnyCoordinator?
    for event in workload.events {
      let next = try BenchmarkAccess.state(after: event.operation, from: state)
      states.append(next)
      state = next
    }
    var recorderTimes: [Double] = []
    var flushTimes: [Double] = []
    var synchronousTimes: [Double] = []
    for pair in 0..<pairs {
      let recorderStore = try SessionStore(path: freshStorePath("record-async-\(pair)"))
      let recorder = NavigationRecorder<JSONValue>(store: recorderStore, session: workload.session)
      recorderTimes.append(time { for state in states { recorder.record(state) } } / Double(states.count))
      let flushStart = DispatchTime.now().uptimeNanoseconds
      try await recorder.flush()
      flushTimes.append(Double(DispatchTime.now().uptimeNanoseconds - flushStart) / 1e9)
      guard try await recorderStore.read({ try $0.state(of: workload.session) }).state == states.last else {
        throw BenchmarkError("the recorder's session does not end at the last state")
      }

      let synchronousStore = try SessionStore(path: freshStorePath("record-sync-\(pair)"))
      synchronousTimes.append(
        try time {
          var before: AnyCoordinator?
          for state in states {
            try synchronousStore.record(
              session: workload.session, from: before, to: state, at: Timestamp(millisecondsSince1970: 0))
            before = state
          }
        } / Double(states.count))
    }
    return [
      Measurement(
        scenario: "7 record() call, caller's cost", ours: median(recorderTimes), anchorName: "synchronous record",
        anchor: median(synchronousTimes),
        unit: "s", rows: states.count, note: "median per call over \(pairs) pairs"),
      Measurement(
        scenario: "7 flush() after the calls", ours: median(flushTimes), anchorName: "", anchor: nil, unit: "s",
        rows: states.count,
        note: "until every state is committed"),
    ]
  }

  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted.count % 2 == 1
      ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
  }
}
