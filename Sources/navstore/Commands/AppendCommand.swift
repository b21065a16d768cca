import ArgumentParser
import NavCore
import NavPersistence

/// `navstore append`: appends one operation to a session and prints its seq.
struct AppendCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "append",
    abstract: "Append one operation to a session; prints the new seq.",
    discussion: """
      A session is created by its first operation, which must be a start. The operation is \
      checked against the session's state first; a rejected operation writes nothing. JSON is \
      given inline, as @FILE, or as @- for standard input.

      Examples:
        navstore append s-1 --op \\
          '{"op":"start","state":{"routes":[{"style":"root","screen":"home"}]}}'
        navstore append s-1 --op '{"op":"push","screen":"numbersList"}' \\
          --cause '{"listTapped":{}}'
        navstore append s-1 --op '{"op":"goBack"}' --origin user --expect-seq 3
      """)

  @OptionGroup var store: StoreOption

  @Argument(help: "The session id.", transform: sessionArgument)
  var session: SessionID

  @Option(help: "The operation (wire-format JSON, @FILE or @-).")
  var op: String

  @Option(
    help:
      "When it happened, like 2026-11-21T10:15:30.250Z or 2026-11-21T11:15+01:00 (default: now, read once the store's write lock is held).",
    transform: timeArgument)
  var at: Timestamp?

  @Option(help: "app (the app navigated) or user (the host reported a gesture).")
  var origin: EventOrigin = .app

  @Option(help: "The app action that caused it (JSON, @FILE or @-), kept for audits.")
  var cause: String?

  @Option(
    name: .customLong("expect-seq"), parsing: .unconditional,
    help: "Append only if this event becomes this seq (optimistic concurrency).")
  var expectSeq: Int?

  func validate() throws {
    if let expectSeq, expectSeq < 1 { throw ValidationError("--expect-seq must be 1 or more, not \(expectSeq)") }
    if op == "@-", cause == "@-" {
      throw ValidationError(
        "--op and --cause cannot both read standard input (@-); give one of them as @FILE or inline")
    }
  }

  func run() throws {
    let operation = try JSONInput.decode(AnyOperation.self, from: op, option: "--op")
    let causeValue = try cause.map { argument throws(CLIError) in
      try JSONInput.decode(JSONValue.self, from: argument, option: "--cause")
    }
    let event = AnyEvent(
      session: session, seq: expectSeq, at: at ?? now(), origin: origin,
      operation: operation, cause: causeValue)
    let opened = try store.open(
      forWriting: true,
      onPostgreSQL:
        "append writes to a store file; a PostgreSQL store takes events through the collector, or as JSON Lines "
        + "with 'navstore import FILE --db postgres://... --app NAME'")
    let outcome = try storeCall { () throws(StoreError) in
      // Without --at, the time is read inside the write transaction: racing appends are
      // stored in time order.
      try at == nil ? opened.append(event, timedBy: now) : opened.append(event)
    }
    print(outcome.event.seq ?? 0)
  }
}
