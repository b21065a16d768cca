import Foundation
import NavTestSupport
import Testing

/// The commands of the README and the guides run as printed, in order, each document in a
/// fresh folder of its own, as a reader pastes them:
/// - every line of a ```` ```sh ```` block must succeed;
/// - every `$ command` of a ```` ```console ```` block must print what the block shows after it
///   (standard output and error together). In the expected text, `...` stands for any text
///   within a line, and a line of only `...` for any number of lines.
///
/// `swift` in the docs builds and runs this checkout; here it stands for what it would run:
/// `swift run navstore ARGS` runs the built `navstore`, `swift build --show-bin-path` prints its
/// folder, and `swift test` does nothing (CI runs the suite itself). DuckDB must be installed
/// for the analytics guide, as for `AnalyticsQueryTests`.
@Suite(.waitsOnProcesses, .enabled(if: DuckDB.executable != nil || DuckDB.isRequired, "DuckDB is not installed"))
struct DocCommandTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static let documents = [
    "README.md", "docs/guides/restoring-in-an-app.md", "docs/guides/support-and-qa.md", "docs/guides/analytics.md",
    "docs/guides/audits.md", "docs/guides/collector.md",
  ]

  @Test func everyGuideIsListed() throws {
    let guides = try FileManager.default.contentsOfDirectory(
      atPath: Self.root.appendingPathComponent("docs/guides").path
    )
    .filter { $0.hasSuffix(".md") }.map { "docs/guides/" + $0 }
    #expect(Set(guides).isSubset(of: Set(Self.documents)), "a guide whose commands no test runs")
  }

  @Test(arguments: documents)
  func theCommandsRunAsPrinted(_ document: String) throws {
    _ = try #require(DuckDB.executable, "NAVSTORE_REQUIRE_DUCKDB=1, but there is no duckdb on the PATH")
    let markdown = try String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)
    let steps = Self.steps(in: markdown)
    let temporary = try TemporaryFolder()
    defer { withExtendedLifetime(temporary) {} }  // removed when the test ends
    let folder = temporary.url

    let run = try Self.run(steps, in: folder)
    #expect(
      run.status == 0,
      "\(document): the commands stopped at \(run.lastMarker ?? "the start"):\n\(run.stderr.suffix(2_000))")
    for (index, step) in steps.enumerated() {
      guard case .console(let command, let expected, let line) = step else { continue }
      let output = (try? String(contentsOf: folder.appendingPathComponent(".out/\(index)"), encoding: .utf8)) ?? ""
      let actual = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLastEmpty()
      #expect(
        Self.matches(expected[...], actual[...]),
        "\(document):\(line): `\(command)` printed:\n\(actual.joined(separator: "\n"))\n\nwhere the document shows:\n\(expected.joined(separator: "\n"))"
      )
    }
  }

  @Test func theExpectedTextsWildcardsMatchWhatTheySay() {
    #expect(Self.matches(["a ... c"], ["a b c"]) && !Self.matches(["a ... c"], ["a b d"]))
    #expect(Self.matches(["x", "...", "z"], ["x", "z"]) && Self.matches(["x", "...", "z"], ["x", "1", "2", "z"]))
    #expect(!Self.matches(["x", "z"], ["x", "y", "z"]) && !Self.matches(["x"], ["x", "y"]))
  }

  enum Step {
    /// The lines of a `sh` block, and where it starts.
    case shell([String], line: Int)
    /// One `$` command of a `console` block, what it must print, and its line.
    case console(String, expected: [String], line: Int)
  }

  /// The document's `sh` blocks and `console` commands, in order.
  static func steps(in markdown: String) -> [Step] {
    CodeBlock.all(in: markdown).flatMap { block -> [Step] in
      switch block.language {
      case "sh": [.shell(block.lines, line: block.line)]
      case "console": consoleSteps(block.lines, firstLine: block.line)
      default: []
      }
    }
  }

  /// `$ command` lines (continued by a trailing `\`), each with the lines after it.
  static func consoleSteps(_ lines: [String], firstLine: Int) -> [Step] {
    var steps: [(command: String, expected: [String], line: Int)] = []
    var continuing = false
    for (offset, line) in lines.enumerated() {
      if continuing, var last = steps.popLast() {
        last.command += "\n" + line
        steps.append(last)
        continuing = line.hasSuffix("\\")
      } else if line.hasPrefix("$ ") {
        steps.append((String(line.dropFirst(2)), [], firstLine + offset))
        continuing = line.hasSuffix("\\")
      } else if var last = steps.popLast() {
        last.expected.append(line)
        steps.append(last)
      }
    }
    return steps.map { .console($0.command, expected: $0.expected, line: $0.line) }
  }

  /// Runs the steps as one bash script in `folder`: a failing `sh` line stops it; each console
  /// command's output goes to `.out/INDEX`.
  static func run(_ steps: [Step], in folder: URL) throws -> (status: Int32, stderr: String, lastMarker: String?) {
    let binary = NavStoreProcess.binary.deletingLastPathComponent().path
    var script = """
      set -euo pipefail
      mkdir .out
      swift() {
        case "$1 ${2:-}" in
          "run navstore") shift 2; navstore "$@" ;;
          "build --show-bin-path") echo '\(binary)' ;;
          "test "*) ;;
          *) echo "no stand-in for: swift $*" >&2; return 1 ;;
        esac
      }

      """
    for (index, step) in steps.enumerated() {
      switch step {
      case .shell(let lines, let line):
        script += "echo '@@ the sh block at line \(line)' >&2\n" + lines.joined(separator: "\n") + "\n"
      case .console(let command, _, let line):
        script += "echo '@@ the command at line \(line)' >&2\n{ \(command)\n} > .out/\(index) 2>&1 || true\n"
      }
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", script]
    process.currentDirectoryURL = folder
    var environment = ProcessInfo.processInfo.environment
    environment["NAVSTORE_DB"] = nil
    environment["PATH"] =
      ([binary, DuckDB.executable?.deletingLastPathComponent().path].compactMap { $0 } + [
        environment["PATH"] ?? "/usr/bin:/bin"
      ])
      .joined(separator: ":")
    process.environment = environment
    let errors = Pipe()
    process.standardOutput = FileHandle.nullDevice
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let marker = stderr.split(separator: "\n").last { $0.hasPrefix("@@ ") }.map { String($0.dropFirst(3)) }
    return (process.terminationStatus, stderr, marker)
  }

  /// Whether `actual` is what `expected` shows, with its `...` wildcards.
  static func matches(_ expected: ArraySlice<String>, _ actual: ArraySlice<String>) -> Bool {
    guard let first = expected.first else { return actual.isEmpty }
    if first == "..." {
      return (0...actual.count).contains { matches(expected.dropFirst(), actual.dropFirst($0)) }
    }
    guard let line = actual.first, lineMatches(first, line) else { return false }
    return matches(expected.dropFirst(), actual.dropFirst())
  }

  static func lineMatches(_ pattern: String, _ line: String) -> Bool {
    let line = line.trimmingTrailingSpaces()
    let parts = pattern.trimmingTrailingSpaces().components(separatedBy: "...")
    guard parts.count > 1 else { return parts[0] == line }
    guard line.hasPrefix(parts[0]), let last = parts.last, line.hasSuffix(last) else { return false }
    var rest = line.dropFirst(parts[0].count).dropLast(last.count)
    for middle in parts.dropFirst().dropLast() {
      guard let found = rest.range(of: middle) else { return false }
      rest = rest[found.upperBound...]
    }
    return line.count >= parts[0].count + last.count
  }
}

extension String {
  func trimmingTrailingSpaces() -> String {
    String(self.reversed().drop { $0 == " " }.reversed())
  }
}

extension Array where Element == String {
  /// Without the empty line a final newline leaves.
  func dropLastEmpty() -> [String] {
    last == "" ? Array(dropLast()) : self
  }
}
