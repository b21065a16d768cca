import Foundation
import Testing

/// Runs a suite's tests on threads of their own instead of Swift's shared pool.
///
/// Some tests hold a thread for a long time: they wait for child processes synchronously
/// (`waitUntilExit`, a read to the end of a pipe), or compute for a minute in a debug build.
/// The shared pool has one thread per core: on a two-core machine two such tests held both
/// threads for up to a minute, and every async test of the run (the player's, the collector's)
/// stood still meanwhile and timed out. Their own threads, as many as the cores, keep them as
/// parallel as before without holding anyone else up.
public struct WaitsOnProcesses: SuiteTrait, TestTrait, TestScoping {
  /// Each test of the suite, not the suite once.
  public var isRecursive: Bool { true }

  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    try await withTaskExecutorPreference(ProcessWaitingThreads.shared) { try await function() }
  }
}

extension Trait where Self == WaitsOnProcesses {
  /// The suite's tests block on child processes: run them off the shared pool.
  public static var waitsOnProcesses: Self { WaitsOnProcesses() }

  /// The suite's tests compute for a long time: run them off the shared pool.
  public static var computesAtLength: Self { WaitsOnProcesses() }
}

/// A fixed set of threads taking jobs in order: a job that blocks holds only one of them.
/// A test's waits end when its child process does, so a job queued behind them always runs.
public final class ProcessWaitingThreads: TaskExecutor, @unchecked Sendable {
  static let shared = ProcessWaitingThreads(count: max(2, ProcessInfo.processInfo.activeProcessorCount))

  /// Guards `jobs`, and wakes a waiting thread when one arrives.
  private let condition = NSCondition()
  private var jobs: [UnownedJob] = []

  private init(count: Int) {
    for index in 0..<count {
      let thread = Thread { [self] in runJobs() }
      thread.name = "waits-on-processes-\(index)"
      thread.start()
    }
  }

  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    condition.lock()
    jobs.append(job)
    condition.signal()
    condition.unlock()
  }

  private func runJobs() {
    while true {
      condition.lock()
      while jobs.isEmpty { condition.wait() }
      let job = jobs.removeFirst()
      condition.unlock()
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }
}

/// Runs blocking work (a child process waited on, a cluster started) on a thread made for it,
/// and waits for it without holding any executor's thread: the caller's tasks, and their
/// deadlines, go on running meanwhile. For tests whose own timing matters, where a suite-wide
/// `.waitsOnProcesses` would queue their database calls and timers behind other tests' waits.
public func onAThreadOfItsOwn<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    let thread = Thread { continuation.resume(with: Result { try work() }) }
    thread.name = "blocking-work"
    thread.start()
  }
}
