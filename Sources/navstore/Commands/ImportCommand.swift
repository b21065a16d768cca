import ArgumentParser
import Foundation
@_spi(Internals) import NavArchive
import NavCore
import NavFleet
@_spi(Internals) import NavPersistence

/// `navstore import`: JSON Lines events into the store.
struct ImportCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Import JSON Lines events (the wire format's Event, one per line).",
    discussion: """
      All lines are one transaction unless --batch N. A bad line stops the import, names its \
      line number, and keeps nothing of its transaction; so does a line longer than \
      --max-line-bytes, refused as soon as that many bytes arrive without a newline. Events \
      with a seq that are already stored with the same content are skipped, so importing a \
      file twice is harmless when its lines carry seqs (history --json and the events export \
      write them); a line without a seq is appended after the session's events.

      With --states, a line may hold the session's whole state instead of an operation: \
      {"session":"s-1","at":"2026-11-21T09:30:00.000Z","state":{"routes":[...]}} (and \
      "cause", "origin", and on the first, "context"). The first state line of a session \
      starts it; each later one is written as the operations that lead from the state before \
      to it (push, dismiss, ...), one change at the line's time, origin and cause. Other lines \
      (background, foreground, end, any event) go through as they are.

      Examples:
        navstore import device-42.jsonl
        navstore import --states states.jsonl
        cat *.jsonl | navstore import - --batch 10000

      Into a PostgreSQL store (--db postgres://...), lines go in transactions of --batch lines \
      (10,000 unless given), each taken as the collector takes an upload: a bad line stops the \
      import, keeping the transactions before its own.
      """)

  @OptionGroup var store: StoreOption

  @Argument(help: "The file to import, or - for standard input.")
  var file: String

  @Option(parsing: .unconditional, help: "Commit every N lines instead of once at the end.")
  var batch: Int?

  @Option(parsing: .unconditional, help: "Refuse a line longer than this many bytes (default: 16 MiB).")
  var maxLineBytes: Int = LineReader.defaultMaximumLineLength

  @Flag(
    help:
      "Lines hold whole states ('state' in place of 'op'): a session's first starts it, each later one becomes the operations that lead to it."
  )
  var states = false

  func validate() throws {
    if let batch, batch < 1 { throw ValidationError("--batch must be 1 or more, not \(batch)") }
    if maxLineBytes < 1 { throw ValidationError("--max-line-bytes must be 1 or more, not \(maxLineBytes)") }
  }

  func run() async throws {
    let handle: FileHandle
    if file == "-" {
      handle = FileHandle.standardInput
    } else {
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), isDirectory.boolValue {
        throw CLIError("'\(file)' is a folder; import reads a JSON Lines file, or - for standard input")
      }
      guard let opened = FileHandle(forReadingAtPath: file) else {
        throw CLIError("cannot read '\(file)' (does it exist and is it readable?)")
      }
      handle = opened
    }
    let (reader, batch) = (LineReader(handle: handle, maximumLineLength: maxLineBytes), batch)
    let progress = ProgressCounter(label: "importing", unit: "lines")
    let summary: ImportSummary
    do {
      let states = states
      summary = try await store.withSessions(writing: true, makingApp: true) { sessions in
        states
          ? try await sessions.importLines(from: StateLines(reader), batch: batch) { progress.update($0) }
          : try await sessions.importLines(from: reader, batch: batch) { progress.update($0) }
      }
    } catch {
      progress.finish()
      throw error
    }
    progress.finish()
    print(
      "imported \(summary.appended) event\(summary.appended == 1 ? "" : "s") into \(summary.sessions) session\(summary.sessions == 1 ? "" : "s")"
        + (summary.alreadyStored > 0 ? " (\(summary.alreadyStored) already stored, skipped)" : ""))
  }
}
