// One app launch that uploads, for the uploader's drills:
// `upload-drill STORE COLLECTOR TOKEN [--batch N] [--timeout-ms N] [--backoff-ms N] [--background]`.
// It uploads everything that waits in STORE, flush after flush (or, with --background, through
// the uploader's background loop and its backoff), waiting out a collector that cannot be
// reached, and exits 0 when nothing but held sessions wait (3 if a flush finds the token refused).
// It says `uploading` once it has begun and, at the end, what it sent and its peak memory. The
// drills kill it at random moments, as the system kills an app, and launch it again.
import Foundation
import NavCore
import NavPersistence
import NavTestSupport
import NavUpload

/// A line on standard output, written at once (the drill reads it while this process runs).
func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// The value after `name` in the arguments, as a number.
func number(after name: String, in arguments: [String]) -> Int? {
  guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
  return Int(arguments[index + 1])
}

func run(_ arguments: [String]) async throws -> Int32 {
  guard arguments.count >= 4, let collector = URL(string: arguments[2]) else {
    FileHandle.standardError.write(Data("usage: upload-drill STORE COLLECTOR TOKEN [options]\n".utf8))
    return 2
  }
  let store = try SessionStore(path: arguments[1])
  let configuration = UploadConfiguration(
    batchEvents: number(after: "--batch", in: arguments) ?? 1_000, flushAt: 1, interval: .zero,
    pollInterval: .milliseconds(50),
    maximumBackoff: .milliseconds(number(after: "--backoff-ms", in: arguments) ?? 1_000),
    requestTimeout: .milliseconds(number(after: "--timeout-ms", in: arguments) ?? 10_000))
  let uploader = NavigationUploader(
    store: store, collector: collector, token: arguments[3], configuration: configuration)
  let before = try await uploader.pending()
  say("uploading \(before.events) events of \(before.sessions) sessions")
  if arguments.contains("--background") {
    // As an app leaves it: the background loop, its polls and its backoff, until nothing but
    // held sessions waits.
    await uploader.start()
    while true {
      let waiting = try await uploader.pending()
      if waiting.sessions == waiting.heldSessions { break }
      try await Task.sleep(for: .milliseconds(50))
    }
  } else {
    // As an app moving to the background does: flush after flush.
    flushing: while true {
      switch await uploader.flush() {
      case .done: break flushing
      case .willRetry(let wait): try await Task.sleep(for: wait)  // as long as the collector asked
      case .deadlineReached: continue
      case .overBudget, .stopped:
        say("stopped: the token was refused, or a budget (none is set here) was spent")
        return 3
      }
    }
  }
  let after = try await uploader.pending()
  say(
    "done: \(before.events - after.events) events sent, \(after.heldSessions) sessions held, peak \(PeakMemory.kibibytes()) KiB"
  )
  return 0
}

do {
  exit(try await run(CommandLine.arguments))
} catch {
  FileHandle.standardError.write(Data("upload-drill: \(error)\n".utf8))
  exit(1)
}
