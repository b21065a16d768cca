import Foundation

/// How a piece of work grows with its input: the CPU time of the calling thread (what it did,
/// not what the machine's other work took from it), the median of a few runs at each size, and
/// the ratio from one size to the next.
///
/// This checks a complexity, not a speed: doubling the input of linear work about doubles its
/// time, of quadratic work quadruples it. A check that each doubling stays under 3.2 times
/// (linear with room for noise and caches: a CI run on two shared cores once measured 2.8 for
/// the store's linear verify, where other runs measured 1.6 to 2.1; still below quadratic's 4)
/// holds on a slow or a busy machine alike, and fails on the quadratic replays it guards
/// against. The speed itself is measured in the benchmarks.
public enum GrowthCheck {
  /// The calling thread's CPU time, in seconds.
  public static func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// The median thread CPU time of `runs` runs of `work`, in seconds.
  public static func medianSeconds(runs: Int = 3, _ work: () throws -> Void) rethrows -> Double {
    var times: [Double] = []
    for _ in 0..<runs {
      let start = threadCPUSeconds()
      try work()
      times.append(threadCPUSeconds() - start)
    }
    return times.sorted()[times.count / 2]
  }

  /// The ratio of each size's time to the one before (sizes doubling), and whether every one is
  /// under `limit`.
  public static func doublingRatios(_ seconds: [Double], limit: Double = 3.2) -> (ratios: [Double], linear: Bool) {
    let ratios = zip(seconds.dropFirst(), seconds).map { later, earlier in later / max(earlier, 1e-6) }
    return (ratios, ratios.allSatisfy { $0 < limit })
  }
}
