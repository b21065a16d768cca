import Foundation
import NavTestSupport
import Testing

/// Forgetting from the command line: an older checkpoint still verifies, naming the erasure.
@Suite(.waitsOnProcesses) struct ForgetCommandTests: CommandSuite {
  let folder: URL
  /// Removed, with what the test wrote, when the test ends.
  let temporary: TemporaryFolder

  init() throws {
    temporary = try TemporaryFolder()
    folder = temporary.url
    #expect(try navstore("demo", "--db", "d.sqlite").status == 0)
  }

  @Test func aForgottenSessionIsReportedAsForgottenAndTheAuditPasses() throws {
    let key = try navstore("keygen", "--out", "k.key", "--name", "dpo")
    try key.stdout.write(to: folder.appendingPathComponent("k.pub"), atomically: true, encoding: .utf8)
    #expect(try navstore("checkpoint", "--db", "d.sqlite", "--key", "k.key", "--out", "c.note").status == 0)
    let forgot = try navstore("forget", "demo-numbers", "--db", "d.sqlite", "--vacuum")
    #expect(forgot.status == 0, "\(forgot.stderr)")
    #expect(forgot.stdoutLines.first?.hasPrefix("forgot demo-numbers: forgotten at ") == true)
    #expect(forgot.stdoutLines.last?.hasPrefix("space given back: ") == true)
    let audit = try navstore("verify", "--db", "d.sqlite", "--checkpoint", "c.note", "--key", "k.pub")
    #expect(audit.status == 0, "\(audit.stderr)")
    #expect(audit.stdoutLines.contains { $0.hasPrefix("checkpoint: demo-numbers at seq 12: forgotten at ") })
    #expect(audit.stdoutLines.last?.hasSuffix("0 problems, 1 forgotten since") == true)
    let again = try navstore("forget", "demo-numbers", "--db", "d.sqlite")
    #expect(again.status != 0)
    #expect(again.stderrLines.count == 1 && again.stderr.contains("was forgotten at"))
  }

  @Test func pruneListsThenForgetsTheSessionsPastTheLimit() throws {
    let dry = try navstore("prune", "--db", "d.sqlite", "--before", "2026-11-21T09:45:00.000Z", "--dry-run")
    #expect(dry.status == 0)
    #expect(dry.stdoutLines.last == "5 sessions last active before 2026-11-21T09:45:00.000Z")
    let before = try navstore("sessions", "--db", "d.sqlite", "--json").stdoutLines.count
    let pruned = try navstore("prune", "--db", "d.sqlite", "--before", "2026-11-21T09:45:00.000Z")
    #expect(pruned.status == 0)
    #expect(pruned.stdoutLines.last == "forgot 5 sessions last active before 2026-11-21T09:45:00.000Z")
    #expect(try navstore("sessions", "--db", "d.sqlite", "--json").stdoutLines.count == before - 5)
    #expect(try navstore("verify", "--db", "d.sqlite").status == 0)
  }
}
