import ArgumentParser
import Foundation
@_spi(Internals) import NavArchive
import NavCollector
import NavContract
import NavCore
@_spi(Internals) import NavPersistence
import NavUpload

/// `navstore push`: a store's sessions, or a JSON Lines file, to a collector, through the same
/// contract a device uses.
struct PushCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "push",
    abstract: "Upload a store's sessions, or a JSON Lines file, to a collector.",
    discussion: """
      From a store (--db, --app), each session is sent from where the collector's head for it \
      stands (the heads are asked 5,000 sessions at a time), so a push that stopped resumes \
      where it was; a device's store signs its uploads \
      with the device's key, so the sessions it started are taken. A file's lines are not \
      signed: the collector rejects those of sessions a device started (wrong-device). From FILE (or - for standard \
      input), every line is sent: lines the collector holds already come back as duplicates. \
      Lines go in gzip'd batches; the collector's retry rules are followed (a batch too large \
      is split, and a line too large even alone is counted as rejected and the push goes on; \
      429 and 503 wait for Retry-After). Prints what the collector did; exits 1 when it \
      rejected a line, naming the first (counted from 1 in the order sent).

      The token comes from --token or $NAVSTORE_TOKEN (which keeps it out of the shell's \
      history and the process list).

      Examples:
        NAVSTORE_TOKEN=$(cat device.token) navstore push --to http://127.0.0.1:8740 --db app.sqlite
        navstore push events.jsonl --to http://collector.example:8740 --token "$TOKEN"
      """)

  @Argument(help: "A JSON Lines file of events to send instead of the store's sessions (- for standard input).")
  var file: String?

  @OptionGroup var store: StoreOption

  @Option(help: "The collector's address, like http://127.0.0.1:8740.")
  var to: String

  @Option(help: "The ingest token (default: $NAVSTORE_TOKEN).")
  var token: String?

  @Option(help: "Lines per upload.")
  var batch = 1_000

  func validate() throws {
    guard let url = URL(string: to), url.scheme == "http" || url.scheme == "https", url.host != nil else {
      throw ValidationError("--to: give the collector's address, like http://127.0.0.1:8740")
    }
    guard batch >= 1 else { throw ValidationError("--batch must be at least 1, not \(batch)") }
  }

  func run() async throws {
    guard let token = token ?? ProcessInfo.processInfo.environment["NAVSTORE_TOKEN"], !token.isEmpty else {
      throw CLIError("give the collector's ingest token with --token or NAVSTORE_TOKEN")
    }
    guard let base = URL(string: to) else { throw CLIError("--to: not an address") }
    let client = CollectorClient(base: base, token: token)
    var pusher = Pusher(client: client, batch: batch)
    if let file {
      try await pusher.push(file: file)
    } else {
      let opened = try store.open(
        forWriting: false,
        onPostgreSQL:
          "push sends a device's store file; to send a PostgreSQL app's sessions, export them "
          + "('navstore export --table events --format jsonl --out FILE') and push the file")
      // A device's own store signs its uploads with the device's key, as the app would.
      pusher.signer = try storeCall { () throws(StoreError) in try opened.deviceSigner() }
      try await pusher.push(store: opened)
    }
    try pusher.finish(to: to)
  }
}

/// The push under way: lines gathered into batches, each sent when full, and the collector's
/// answers added up.
private struct Pusher {
  let client: CollectorClient
  let batch: Int
  /// The key the store's sessions are signed with, when the store is a device's.
  var signer: DeviceSigner?
  private var pending: [String] = []
  private var sent = 0
  private var sessions = 0
  private var answer = UploadAnswer()
  /// The sessions of the lines gathered, when known (a store's; `nil`: a file's, unknown).
  private var pendingSessions: Set<SessionID>? = []
  /// The batches sent and not yet answered, oldest first (at most `inFlightLimit`).
  private var inFlight: [Batch] = []
  /// How many batches may be under way at once: two, so the collector takes one in while the
  /// other is read and checked, and this side gathers the next meanwhile.
  private static let inFlightLimit = 2

  /// A batch sent: its answer to come, its first line's place among those sent, its length,
  /// and its sessions (`nil`: unknown).
  private struct Batch {
    let answer: Task<UploadAnswer, any Error>
    let firstLine: Int
    let count: Int
    let sessions: Set<SessionID>?

    /// Whether the collector must have taken this batch before one with `others` is sent: when
    /// they may share a session, whose later lines would otherwise arrive first (a `gap`).
    func mustPrecede(_ others: Set<SessionID>?) -> Bool {
      guard let sessions, let others else { return true }
      return !sessions.isDisjoint(with: others)
    }
  }
  /// Whether the collector answered that it has no heads endpoint.
  private var askEachHead = false
  private let progress = ProgressCounter(label: "pushing", unit: "events")

  init(client: CollectorClient, batch: Int) {
    self.client = client
    self.batch = batch
  }

  /// Every session of `store`, each from the collector's head for it. Heads are asked for in
  /// batches (`POST /v1/heads`), so a backfill of many sessions costs a request per batch, not
  /// one per session; a collector without that endpoint is asked session by session.
  mutating func push(store: SessionStore) async throws {
    // The listing gives each session's length: no second read per session.
    var sessionsAndCounts: [(id: SessionID, count: Int)] = []
    try storeCall { () throws(StoreError) in
      try store.forEachSession { summary throws(StoreError) in
        sessionsAndCounts.append((summary.id, summary.eventCount))
      }
    }
    var start = 0
    while start < sessionsAndCounts.count {
      let part = sessionsAndCounts[start..<min(sessionsAndCounts.count, start + HeadsRequest.maximumSessions)]
      start = part.endIndex
      let heads = try await heads(of: part.map(\.id))
      for (id, count) in part {
        let remote = heads[id]?.seq ?? 0
        guard remote < count else { continue }
        sessions += 1
        var from = remote + 1
        while from <= count {
          let to = min(count, from + batch - 1)
          let events = try storeCall { () throws(StoreError) in try store.history(of: id, from: from, to: to) }
          // A batch holds whole sessions where it can, so that batches under way at once share
          // none; a session longer than a batch goes in parts, one after the other.
          if pending.count + events.count > batch { try await flush() }
          for event in events { pending.append(try WireFormat.canonicalString(event)) }
          pendingSessions?.insert(id)
          if pending.count >= batch { try await flush() }
          from = to + 1
        }
      }
    }
    try await flush()
    try await settleAll()
  }

  /// The collector's heads of `ids`: in one request, or one each from a collector that has no
  /// heads endpoint; ids that differ from another only in Unicode normalization one each too
  /// (`HeadsRequest.ambiguous`: one answer cannot hold both).
  private mutating func heads(of ids: [SessionID]) async throws -> [SessionID: SessionHead] {
    do {
      let ambiguous = HeadsRequest.ambiguous(ids)
      var heads: [SessionID: SessionHead] = [:]
      if askEachHead == false, let batch = try await client.heads(of: ids.filter { !ambiguous.contains($0) }) {
        heads = batch
      } else {
        askEachHead = true
        for id in ids where !ambiguous.contains(id) { heads[id] = try await client.head(of: id) }
      }
      for id in ambiguous { heads[id] = try await client.head(of: id) }
      return heads
    } catch {
      throw CLIError("cannot read the collector's heads: \(error)")
    }
  }

  /// Every line of `file`.
  mutating func push(file: String) async throws {
    let handle: FileHandle
    if file == "-" {
      handle = FileHandle.standardInput
    } else {
      guard let opened = FileHandle(forReadingAtPath: file) else {
        throw CLIError("cannot read '\(file)' (does it exist and is it readable?)")
      }
      handle = opened
    }
    let reader = LineReader(handle: handle)
    while true {
      let next: ArraySlice<UInt8>?
      do throws(LineReaderError) {
        next = try reader.next()
      } catch {
        throw CLIError("\(file): \(error)")
      }
      guard let line = next else { break }
      if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
      try await add(String(decoding: line, as: UTF8.self))
    }
    try await flush()
    try await settleAll()
  }

  private mutating func add(_ line: String) async throws {
    pending.append(line)
    pendingSessions = nil
    if pending.count >= batch { try await flush() }
  }

  /// Sends the lines gathered as one batch, while up to `inFlightLimit` are under way: reading
  /// and encoding here overlap the collector's work on the batches before. A batch that may
  /// share a session with one under way waits until that one is answered, so a session's lines
  /// reach the collector in order.
  private mutating func flush() async throws {
    guard !pending.isEmpty else { return }
    let (lines, sessions) = (pending, pendingSessions)
    pending = []
    pendingSessions = []
    while inFlight.count >= Self.inFlightLimit || inFlight.contains(where: { $0.mustPrecede(sessions) }) {
      try await settle()
    }
    let (client, signer) = (client, signer)
    let answer = Task { try await client.upload(lines, signedBy: signer) }
    inFlight.append(Batch(answer: answer, firstLine: sent, count: lines.count, sessions: sessions))
    sent += lines.count
  }

  /// Waits for the oldest batch under way, and adds its answer up.
  private mutating func settle() async throws {
    guard !inFlight.isEmpty else { return }
    let batch = inFlight.removeFirst()
    let part: UploadAnswer
    do {
      part = try await batch.answer.value
    } catch {
      progress.clear()
      throw CLIError("the upload stopped after \(batch.firstLine) events: \(error)")
    }
    answer.add(part, shiftedBy: batch.firstLine)
    answer.heads = [:]  // a backfill's heads are not kept: memory stays a batch's
    progress.update(batch.firstLine + batch.count)
  }

  /// Waits for every batch under way.
  private mutating func settleAll() async throws {
    while !inFlight.isEmpty { try await settle() }
  }

  func finish(to url: String) throws {
    progress.finish()
    let from = sessions > 0 ? " of \(sessions) session\(sessions == 1 ? "" : "s")" : ""
    print(
      "pushed \(sent) events\(from) to \(url): \(answer.accepted) accepted, \(answer.duplicates) duplicates, "
        + "\(answer.rejected.count) rejected")
    if let first = answer.rejected.first {
      throw CLIError(
        "the collector rejected \(answer.rejected.count) line\(answer.rejected.count == 1 ? "" : "s"), first line "
          + "\(first.line) of the \(sent) sent (\(first.rejection.reason.rawValue)): \(first.rejection.message)")
    }
  }
}
