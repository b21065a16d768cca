// Chooses the snapshot interval: append cost, rehydration cost and bytes per event, per interval.
// swift run -c release snapshot-interval   (from Benchmarks/)
import Foundation
import NavCore
@_spi(Internals) import NavPersistence
@_spi(Internals) import NavTools

// For each snapshot interval: append a 3,000-event session (pushes and pops on a sheet stack),
// then time rehydration at 200 seqs spread over it, and report file size.
func seconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
let session = try SessionID("bench")
for interval in [10, 25, 50, 100, 200, 500, 1000] {
  let path = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-interval-\(interval).sqlite").path
  for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
  let store = try SessionStore(path: path, options: StoreOptions(snapshotInterval: interval))
  var events: [AnyEvent] = [
    AnyEvent(
      session: session, at: Timestamp(millisecondsSince1970: 0),
      operation: .start(.stack([.root("home", withNavigation: true)])))
  ]
  var depth = 1
  for index in 1..<3000 {
    let op: AnyOperation
    if depth > 1 && index % 3 == 0 {
      op = .pop()
      depth -= 1
    } else if depth < 30 {
      op = .push(["numberDetail": ["number": .number(Double(index))]])
      depth += 1
    } else {
      op = .popToRoot()
      depth = 1
    }
    events.append(AnyEvent(session: session, at: Timestamp(millisecondsSince1970: Int64(index)), operation: op))
  }
  let appendStart = seconds()
  try BenchmarkAccess.appendBatch(events, to: store)
  let appendTime = seconds() - appendStart
  let reopened = try SessionStore(path: path, options: StoreOptions(snapshotInterval: interval, access: .readOnly))
  let rehydrateStart = seconds()
  for sample in 0..<200 { _ = try reopened.state(of: session, at: 1 + (sample * 2999) / 199) }
  let rehydrateTime = (seconds() - rehydrateStart) / 200
  let size =
    (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0)
    + ((try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0)
  print(
    "interval \(interval)\tappend 3000: \(String(format: "%.3f", appendTime)) s\trehydrate: \(String(format: "%.3f", rehydrateTime * 1000)) ms\tbytes/event: \(size / 3000)"
  )
}
