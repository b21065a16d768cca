import ArgumentParser
import Foundation
import NavCore
import NavFleet
import NavPersistence

/// `navstore forget`: erase sessions, keeping tombstones.
struct ForgetCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "forget",
    abstract: "Erase sessions (events and snapshots), leaving tombstones audits recognize.",
    discussion: """
      For erasure requests: in one transaction, each session's snapshots, events and row are \
      deleted, and a tombstone keeps its id, the time, and its last seq and chain value, nothing \
      of what it showed. Audits against older checkpoints report it as forgotten, not tampered \
      with. A forgotten id is not used again. All or nothing: an unknown or already forgotten \
      session refuses the whole call. --vacuum then gives the space back to the file system.

      Examples:
        navstore forget s-1 s-2
        navstore forget user-42-launch-7 --vacuum
      """)

  @OptionGroup var store: StoreOption

  @Argument(help: "The sessions to forget.", transform: sessionArgument)
  var sessions: [SessionID]

  @Flag(help: "Give the freed space back to the file system (VACUUM; needs the store to itself).")
  var vacuum = false

  func validate() throws {
    if sessions.isEmpty { throw ValidationError("name the sessions to forget") }
  }

  func run() async throws {
    let (sessions, vacuum) = (sessions, vacuum)
    try await store.withSessions(writing: true) { source in
      if vacuum { try source.checkSpaceCanBeReclaimed() }
      for tombstone in try await source.forget(sessions, at: now()) { print("forgot \(tombstone)") }
      if vacuum { try await reclaim(source) }
    }
  }
}

/// `navstore prune`: erase the sessions past a retention limit.
struct PruneCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "prune",
    abstract: "Erase every session whose last event is older than a time, leaving tombstones.",
    discussion: """
      For retention limits: forgets (as 'navstore forget' does; in one transaction on a store \
      file) every session whose last event is before --before. --dry-run lists them without \
      erasing.

      Examples:
        navstore prune --before 2026-05-01T00:00:00.000Z --dry-run
        navstore prune --before 2026-05-01T00:00:00.000Z --vacuum

      On a PostgreSQL store, sessions are forgotten in transactions of 1,000 (each holds a lock \
      per session, and the database's lock table is shared and finite): if the command stops, \
      the transactions before it stay, and running it again goes on. Then every month that ended \
      over a day ago and whose sessions (of every app) are all forgotten loses its partitions, \
      which returns their space at once, and the command lists those months; a month whose \
      tables stay busy for 30 s keeps them until the next prune, which the command says on \
      stderr.
      """)

  @OptionGroup var store: StoreOption

  @Option(
    help: "Forget sessions whose last event is before this time, like 2026-05-01T00:00:00.000Z.",
    transform: timeArgument)
  var before: Timestamp

  @Flag(help: "List the sessions that would be forgotten; change nothing.")
  var dryRun = false

  @Flag(help: "Give the freed space back to the file system (VACUUM; needs the store to itself).")
  var vacuum = false

  func run() async throws {
    let (before, dryRun, vacuum) = (before, dryRun, vacuum)
    try await store.withSessions(writing: !dryRun) { source in
      if dryRun {
        let sessions = try await source.sessions(lastBefore: before)
        for session in sessions { print("would forget \(session)") }
        print("\(sessions.count) session\(sessions.count == 1 ? "" : "s") last active before \(before)")
        return
      }
      if vacuum { try source.checkSpaceCanBeReclaimed() }
      let progress = ProgressCounter(label: "forgetting", unit: "sessions")
      let pruning: Pruning
      do {
        pruning = try await source.prune(before: before, at: now()) { progress.update($0) }
      } catch {
        progress.finish()
        throw error
      }
      progress.finish()
      for tombstone in pruning.tombstones { print("forgot \(tombstone)") }
      if let partitions = pruning.partitions { report(partitions) }
      let count = pruning.tombstones.count
      print("forgot \(count) session\(count == 1 ? "" : "s") last active before \(before)")
      if vacuum { try await reclaim(source) }
    }
  }
}

/// Says what became of the partitions of the months a PostgreSQL prune emptied: dropped ones on
/// stdout, kept ones on stderr (their space is not back until a later prune).
private func report(_ partitions: PartitionSweepResult) {
  guard let line = partitions.terminalLine else { return }
  if line.isWarning {
    try? FileHandle.standardError.write(contentsOf: Data("navstore: \(line.text)\n".utf8))
  } else {
    print(line.text)
  }
}

/// Runs `VACUUM` and says how much space came back.
private func reclaim(_ source: any SessionSource) async throws {
  let (before, after) = try await source.reclaimSpace()
  print("space given back: \(megabytes(before)) → \(megabytes(after))")
}

private func megabytes(_ bytes: Int64) -> String {
  bytes < 1_000_000 ? "\((bytes + 500) / 1_000) kB" : String(format: "%.1f MB", Double(bytes) / 1_000_000)
}
