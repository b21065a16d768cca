import Foundation
import NavCore
import NavTestSupport
import Testing

/// `navstore plan`, run as a process.
@Suite(.waitsOnProcesses) struct PlanCommandTests {
  static let home = #"{"routes":[{"style":"root","withNavigation":true,"screen":"home"}]}"#
  static let deepLink =
    #"{"routes":[{"style":"root","withNavigation":true,"screen":"home"},{"style":"push","screen":"A"},{"style":"push","screen":"B"},{"style":"sheet","withNavigation":true,"screen":{"numberDetail":{"number":3}}},{"style":"push","screen":"D"}]}"#

  @Test func printsReadableSteps() throws {
    let result = try NavStoreProcess.run(["plan", "--from", Self.home, "--to", Self.deepLink])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    #expect(
      result.stdoutLines == [
        "5 steps under navigation-view, 650 ms apart, 1.95 s in all",
        "  step 0      0 ms  no change",
        "  step 1      0 ms  push A",
        "  step 2    650 ms  push B",
        "  step 3   1300 ms  present sheet numberDetail with navigation",
        "  step 4   1950 ms  push D",
      ])
  }

  @Test func printsJSONLinesThatEndAtTheTarget() throws {
    let result = try NavStoreProcess.run([
      "plan", "--from", Self.home, "--to", Self.deepLink, "--host", "navigation-stack", "--delay-ms", "100", "--json",
    ])
    #expect(result.status == 0)
    let steps = try result.stdoutLines.map { try WireFormat.decode(ScheduledStep<JSONValue>.self, from: $0) }
    #expect(steps.map(\.step) == [0, 1, 2])
    #expect(steps.map(\.atMs) == [0, 0, 100])
    #expect(steps.last?.state == (try WireFormat.decode(AnyCoordinator.self, from: Self.deepLink)))
  }

  @Test func readsStatesFromFilesAndStandardInput() throws {
    let temporary = try TemporaryFolder()
    defer { withExtendedLifetime(temporary) {} }  // removed when the test ends
    let folder = temporary.url
    try Data(Self.deepLink.utf8).write(to: folder.appendingPathComponent("to.json"))
    let result = try NavStoreProcess.run(
      ["plan", "--from", "@-", "--to", "@to.json", "--json"], stdin: Self.home, in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdoutLines.count == 5)
  }

  @Test(arguments: [
    (
      ["plan", "--from", #"{"routes":[]}"#, "--to", home],
      "navstore: --from: routes: a stack needs at least one route, its root"
    ),
    (
      ["plan", "--from", home, "--to", "{"],
      "navstore: --to: invalid JSON at line 1, column 2: expected a string key in an object"
    ),
    (
      ["plan", "--from", home, "--to", #"{"tabs":[{"routes":[{"style":"root","screen":"h"}]}],"selected":0}"#],
      "navstore: cannot plan from a stack coordinator to a tabs coordinator: the top coordinator never changes kind"
    ),
    (
      ["plan", "--from", "@/no/such/file.json", "--to", home],
      "navstore: --from: cannot read the file '/no/such/file.json' (does it exist and is it readable?)"
    ),
    (
      ["plan", "--from", home, "--to", home, "--host", "uikit"],
      "navstore: The value 'uikit' is invalid for '--host <host>'. Please provide one of 'navigation-view', 'navigation-stack' or 'navigation-stack-17'."
    ),
    (
      ["plan", "--from", home, "--to", home, "--delay-ms=-1"],
      "navstore: --delay-ms must be from 0 to 86400000 (one day), not -1"
    ),
  ])
  func badInputIsOneLineOnStderr(_ arguments: [String], _ message: String) throws {
    let result = try NavStoreProcess.run(arguments)
    #expect(result.status != 0)
    #expect(result.stdout.isEmpty)
    #expect(result.stderrLines == [message])
  }
}
