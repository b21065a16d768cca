/// One upload's instructions in a collector on one store: the difference between two callgrind
/// runs (the longer's count less the shorter's, over the uploads between them), in all and by
/// stage.
struct RequestCost: Encodable {
  /// A stage of a request: the synchronous functions whose inclusive counts make it, less
  /// those of `minus` (called within them, and counted as a stage of their own). Only
  /// synchronous functions count: an async function's count stops at its first suspension, and
  /// callgrind gives some of the concurrency runtime's unnamed code to the nearest symbol.
  struct Stage {
    let name: String
    let functions: [String]
    var minus: [String] = []
  }

  /// One stage's instructions per upload.
  struct StageCost: Encodable {
    let stage: String
    let instructions: Int
  }

  let store: StoreUnderTest.Kind
  /// The uploads between the two runs.
  let uploads: Int
  let devices: Int
  let linesPerUpload = SimulatedDevices.batchLines
  /// Instructions per upload, every thread of the collector.
  let instructions: Int
  /// By stage; "HTTP, tasks and the rest" is what the named stages leave.
  let stages: [StageCost]

  init(
    store: StoreUnderTest.Kind, uploads: Int, devices: Int, shorter: CallgrindCounter.Count,
    longer: CallgrindCounter.Count
  ) {
    self.store = store
    self.uploads = uploads
    self.devices = devices
    instructions = (longer.total - shorter.total) / uploads
    func count(_ run: CallgrindCounter.Count, _ stage: Stage) -> Int {
      run.under(stage.functions) - run.under(stage.minus)
    }
    var stages = Self.stages(store).map { stage in
      StageCost(stage: stage.name, instructions: (count(longer, stage) - count(shorter, stage)) / uploads)
    }
    stages.append(
      StageCost(
        stage: store == .sqlite
          ? "the rest: HTTP, middleware, tasks and hops"
          : "the rest: HTTP, middleware, tasks, hops, the token's and the transaction's round trips",
        instructions: instructions - stages.reduce(0) { $0 + $1.instructions }))
    self.stages = stages
  }

  /// The stages in the order a request meets them, each named by the functions that do its work
  /// (demangled names, matched by their beginning after any `specialized `).
  static func stages(_ store: StoreUnderTest.Kind) -> [Stage] {
    // On PostgreSQL the token's lookup and the transaction are async (round trips to the
    // database): their work is in the rest.
    let sqlite = store == .sqlite
    return [
      Stage(
        name: sqlite ? "auth: the token" : "auth: the token's header",
        functions: ["static TokenAuthenticator.bearer("]
          + (sqlite ? ["closure #1 in SQLiteFleet.authenticate(_:at:)"] : [])),
      Stage(
        name: "body: inflate, lines", functions: ["UploadBody.init(", "UploadBody.take(", "UploadBody.finish("]),
      Stage(name: "signature: Ed25519", functions: ["DeviceSignature.init(", "static UploadSignature.verify<"]),
      Stage(name: "decode: lines to events", functions: ["static UploadDecision.read("]),
      Stage(name: "decide: rules, chain, rows", functions: ["static UploadDecision.decide<"]),
    ]
      + (sqlite
        ? [
          Stage(
            name: "write: the transaction around them", functions: ["SQLiteConnection.immediateTransaction<"],
            minus: ["static UploadDecision.decide<"])
        ] : []) + [
        Stage(name: "answer: JSON", functions: ["static EventsEndpoint.answer(", "static ContractJSON.encode<"]),
        Stage(
          name: "log line and metrics",
          functions: ["AnsweringMiddleware.log(", "CollectorMetrics.request(", "CollectorMetrics.upload("]),
      ]
  }

  /// The figures as lines of a table.
  var table: String {
    var lines = [
      "\(store.rawValue): \(instructions) instructions per upload of \(linesPerUpload) lines "
        + "(\(uploads) uploads from \(devices) devices)"
    ]
    for stage in stages {
      let share = instructions > 0 ? Double(stage.instructions) * 100 / Double(instructions) : 0
      lines.append("  \(stage.stage): \(stage.instructions) (\(Int(share.rounded()))%)")
    }
    return lines.joined(separator: "\n")
  }
}
