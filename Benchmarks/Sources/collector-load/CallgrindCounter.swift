import BenchmarkProcesses
import Foundation

/// Runs `navstore serve` under valgrind's callgrind and reads back what it counted: the
/// instructions of the whole process, and each function's inclusive count (its own and its
/// callees'), by demangled name.
struct CallgrindCounter {
  /// One run's counts.
  struct Count {
    let file: URL
    let total: Int
    /// Inclusive instructions by function (demangled, simplified).
    let functions: [String: Int]

    /// The instructions under the functions whose names begin with one of `prefixes` (after any
    /// `specialized `), summed: the prefixes must name functions that do not call one another.
    func under(_ prefixes: [String]) -> Int {
      functions.reduce(0) { sum, entry in
        let name = entry.key.hasPrefix("specialized ") ? entry.key.dropFirst("specialized ".count) : entry.key[...]
        return sum + (prefixes.contains { name.hasPrefix($0) } ? entry.value : 0)
      }
    }
  }

  /// The copy of navstore callgrind runs: without its DWARF, which valgrind 3.19 cannot read
  /// (Swift 6.3 writes DWARF 5); the symbols, which name the functions, stay.
  private let navstore: URL
  private let shim: URL
  private let folder: URL
  private var runs = 0

  init(navstore original: URL, folder: URL) throws {
    self.folder = folder
    navstore = folder.appendingPathComponent("navstore-without-dwarf")
    try Shell.tool("strip", ["--strip-debug", "-o", navstore.path, original.path])
    // Valgrind 3.19 writes its own signal mask into the mask a program passes to sigsuspend; a
    // Swift program's async main waits in libdispatch's sigsuspend on a mask in read-only memory,
    // and valgrind dies of the fault. The shim passes a copy on the stack instead.
    let source = folder.appendingPathComponent("sigsuspend-shim.c")
    try """
    #define _GNU_SOURCE
    #include <signal.h>
    #include <sys/syscall.h>
    #include <unistd.h>
    int sigsuspend(const sigset_t *mask) {
      sigset_t copy = *mask;
      return (int)syscall(SYS_rt_sigsuspend, &copy, (size_t)8);
    }
    """.write(to: source, atomically: true, encoding: .utf8)
    shim = folder.appendingPathComponent("sigsuspend-shim.so")
    try Shell.tool("cc", ["-shared", "-fPIC", "-O2", "-o", shim.path, source.path])
  }

  /// Starts the collector under callgrind on `database`, lets `drive` send it requests (given the
  /// collector's address), stops it (SIGTERM: a clean stop, which writes callgrind's file) and
  /// reads the counts.
  mutating func count(
    database: [String], options: [String], drive: (String) async throws -> Void
  ) async throws -> Count {
    runs += 1
    let file = folder.appendingPathComponent("callgrind-\(runs).out")
    let collector = try CollectorProcess(
      navstore: navstore, database: database, options: options,
      launcher: [
        "LD_PRELOAD=\(shim.path)", "SWIFT_BACKTRACE=enable=no", "valgrind", "--tool=callgrind",
        "--callgrind-out-file=\(file.path)",
      ])
    do {
      try await drive(collector.base)
    } catch {
      collector.stop()
      throw error
    }
    collector.stop()
    guard collector.process.terminationStatus == 0 else {
      throw LoadError("navstore serve under callgrind ended with status \(collector.process.terminationStatus)")
    }
    return try Self.read(file)
  }

  /// `callgrind_annotate`'s inclusive counts of `file`, names demangled.
  static func read(_ file: URL) throws -> Count {
    let annotated = try Shell.tool(
      "sh", ["-c", "callgrind_annotate --inclusive=yes --threshold=100 '\(file.path)' | swift-demangle --simplified"],
      output: true)
    var total = 0
    var functions: [String: Int] = [:]
    for line in annotated.split(separator: "\n") {
      // "  1,234,567 (12.34%)  file:function [object]" or "  1,234,567  PROGRAM TOTALS"
      let trimmed = line.drop { $0 == " " }
      guard let space = trimmed.firstIndex(of: " "),
        let count = Int(trimmed[..<space].replacingOccurrences(of: ",", with: ""))
      else { continue }
      var rest = trimmed[space...].drop { $0 == " " }
      if rest.hasPrefix("(") { rest = rest.drop { $0 != ")" }.dropFirst().drop { $0 == " " } }
      if rest.hasPrefix("PROGRAM TOTALS") {
        total = count
        continue
      }
      // The file is "???" without DWARF; the object's name in brackets ends the line.
      var name = rest.hasPrefix("???:") ? rest.dropFirst(4) : rest
      if let bracket = name.range(of: " [", options: .backwards) { name = name[..<bracket.lowerBound] }
      functions[String(name), default: 0] += count
    }
    guard total > 0 else { throw LoadError("callgrind_annotate read no totals from \(file.lastPathComponent)") }
    return Count(file: file, total: total, functions: functions)
  }
}
