#if canImport(Glibc)
  import Glibc
#endif

/// How many heaps (arenas) glibc's allocator keeps for the collector's threads.
///
/// glibc gives a thread that finds the heap busy an arena of its own, up to eight for each core,
/// and each arena keeps what its threads freed for their next allocations. A collector's work
/// moves between threads (the server's, the store's dispatch queue's), so with one arena per
/// thread it holds several copies of the same working memory. Two arenas hold it to one or two.
enum MallocArenas {
  /// Limits the arenas made from now on to `count` (call it before the work starts: the few
  /// threads already running keep theirs), unless the operator chose a number, with
  /// `MALLOC_ARENA_MAX` or `GLIBC_TUNABLES=glibc.malloc.arena_max=N`, which glibc read at
  /// start. Does nothing where the C library is not glibc.
  static func limit(to count: Int32, environment: [String: String]) {
    #if canImport(Glibc)
      guard environment["MALLOC_ARENA_MAX"] == nil, environment["GLIBC_TUNABLES"]?.contains("arena_max") != true,
        let symbol = dlsym(nil, "mallopt")
      else { return }
      // `mallopt` and `M_ARENA_MAX` (-8, malloc.h) are not in Swift's Glibc module.
      typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
      _ = unsafeBitCast(symbol, to: Mallopt.self)(-8, count)
    #endif
  }
}
