import BenchmarkProcesses
import Foundation
@_spi(Internals) import NavCore
@_spi(Internals) import NavPersistence
@_spi(Internals) import NavTools

// navstore-benchmarks [--quick] [--json FILE]
//   Runs every scenario, prints a table and writes it as JSON (default: benchmarks.json).
// navstore-benchmarks --child import FILE.jsonl STORE | --child export STORE
//   The import and export whose peak memory the parent measures (and callgrind counts).
// navstore-benchmarks --child workload COUNT FILE.jsonl
//   Writes the workload's first COUNT events, the input of those runs.

let arguments = Array(CommandLine.arguments.dropFirst())

if arguments.first == "--child" {
  try Children.run(Array(arguments.dropFirst()))
  exit(0)
}

let usage = """
  usage: navstore-benchmarks [--quick] [--runs N] [--only SCENARIO] [--json FILE]
    --quick          smaller sizes, for CI (and 1 round unless --runs)
    --runs N         rounds of ours against the anchor, after a warm-up (default 5)
    --only SCENARIO  run one scenario (1 to 13; 11 is collector-load's now) alone
    --json FILE      where the results go as JSON (default: benchmarks.json)
  """
if arguments.contains("--help") || arguments.contains("-h") {
  print(usage)
  exit(0)
}
/// Refuses the command line with one line and the usage: a typo must not start a full run.
func refuse(_ problem: String) -> Never {
  FileHandle.standardError.write(Data("navstore-benchmarks: \(problem)\n\(usage)\n".utf8))
  exit(2)
}
var position = 0
while position < arguments.count {
  switch arguments[position] {
  case "--quick": position += 1
  case "--only":
    guard position + 1 < arguments.count, let scenario = Int(arguments[position + 1]), (1...13).contains(scenario)
    else {
      refuse("--only needs a scenario number from 1 to 13")
    }
    if scenario == 11 {
      refuse("scenario 11, the upload into PostgreSQL, is now collector-load's (swift run -c release collector-load)")
    }
    position += 2
  case "--json":
    guard position + 1 < arguments.count else { refuse("--json needs a file name") }
    position += 2
  case "--runs":
    guard position + 1 < arguments.count, let runs = Int(arguments[position + 1]), (1...100).contains(runs) else {
      refuse("--runs needs a number of rounds from 1 to 100")
    }
    position += 2
  default: refuse("unknown argument '\(arguments[position])'")
  }
}

let quick = arguments.contains("--quick")
let jsonPath =
  arguments.firstIndex(of: "--json").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
  ?? "benchmarks.json"
let sizes = quick ? Sizes.quick : Sizes.full
// Rounds of each anchored comparison (1, 2, 4), after a warm-up round.
let rounds =
  arguments.firstIndex(of: "--runs").flatMap { arguments.indices.contains($0 + 1) ? Int(arguments[$0 + 1]) : nil }
  ?? (quick ? 1 : 5)
// --only N runs scenario N alone (for profiling one thing).
let only = arguments.firstIndex(of: "--only").flatMap {
  arguments.indices.contains($0 + 1) ? Int(arguments[$0 + 1]) : nil
}
func wanted(_ scenario: Int) -> Bool { only.map { $0 == scenario } ?? true }
print(
  "NavStore benchmarks (\(quick ? "quick" : "full") run, \(rounds) interleaved rounds after a warm-up, SQLite \(SQLiteLibrary.version))"
)
if let notice = BuildConfiguration.debugNotice { print(notice) }
var results: [Measurement] = []

if wanted(1) {
  print("1 append...")
  results.append(try Scenarios.append(try Workload.make(count: sizes.append), rounds: rounds))
}
if [2, 3, 4, 6].contains(where: wanted) {
  print("generating \(sizes.importCount) events...")
  let big = try Workload.make(count: sizes.importCount)
  print("2 import...")
  let importedStore: String
  if wanted(2) {
    let (versusRaw, versusGRDB, store) = try Scenarios.bulkImport(big, batch: 10_000, rounds: rounds)
    results += [versusRaw, versusGRDB]
    importedStore = store
  } else {
    var seconds = 0.0
    importedStore = try Scenarios.importOurs(big, batch: 10_000, seconds: &seconds)
  }
  if wanted(3) {
    print("3 rehydrate...")
    results += try Scenarios.rehydrate(storePath: importedStore, session: big.session, at: sizes.rehydrateAt)
  }
  if wanted(4) {
    print("4 export...")
    results.append(try Scenarios.export(storePath: importedStore, rows: big.events.count, rounds: rounds))
  }
  if wanted(6) {
    print("6 size and memory...")
    results += try Footprint.measure(storePath: importedStore, workload: big)
  }
}
if wanted(5) {
  print("5 plan...")
  results += try Scenarios.plan(routes: sizes.planRoutes)
}
if wanted(7) {
  print("7 record call...")
  results += try await Scenarios.recordCall(try Workload.make(count: sizes.record), pairs: 5)
}

if wanted(8) {
  print("8 many sessions...")
  results += try FleetScenarios.manySessions(counts: sizes.fleetSessions)
}
if wanted(9) {
  print("9 read while importing...")
  results += try FleetScenarios.readLatencyDuringImport(sessions: sizes.fleetSessions.last ?? 10_000)
}
if wanted(10) {
  print("10 upload through serve...")
  results.append(
    try UploadScenario.run(
      sessions: sizes.uploadSessions, eventsPerSession: sizes.uploadEventsPerSession, rounds: rounds))
}
if wanted(12) {
  print("12 push a backfill...")
  results.append(try PushScenario.run(sessions: sizes.pushSessions, rounds: rounds))
}
if wanted(13) {
  print("13 deep session reads...")
  results += try DeepSessionScenario.run(events: sizes.deepEvents, rounds: rounds)
}

print("")
printTable(results)
let encoder = JSONEncoder()
encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
try encoder.encode(results).write(to: URL(fileURLWithPath: jsonPath))
print("\nwritten to \(jsonPath)")
