#if canImport(Glibc)
import Glibc
#endif

/// How glibc's allocator keeps the collector's memory.
///
/// glibc gives a thread that finds the heap busy an arena of its own, up to eight for each core,
/// and each arena keeps what its threads freed for their next allocations. A collector's work
/// moves between threads (the server's, the store's dispatch queue's), so with one arena per
/// thread it holds several copies of the same working memory. Two arenas hold it to one or two.
///
/// glibc also raises the size from which it maps a block of its own (and unmaps it when freed)
/// each time such a block is freed, up to 32 MiB. A collector's large buffers (an upload's lines,
/// a group's statement for PostgreSQL: hundreds of kilobytes) then come from the arenas, which
/// fragment and keep them. A fixed 256 KiB keeps them mapped and given back.
enum MallocSettings {
  /// Limits the arenas made from now on to `arenas` and fixes the mapping size at
  /// `mappedFrom` bytes (call it before the work starts: the few threads already running keep
  /// their arenas), each unless the operator chose it, with `MALLOC_ARENA_MAX`,
  /// `MALLOC_MMAP_THRESHOLD_` or `GLIBC_TUNABLES` (`glibc.malloc.arena_max`,
  /// `glibc.malloc.mmap_threshold`), which glibc read at start. Does nothing where the C library
  /// is not glibc.
  static func apply(arenas: Int32, mappedFrom: Int32, environment: [String: String]) {
    #if canImport(Glibc)
    guard let symbol = dlsym(nil, "mallopt") else { return }
    // `mallopt`, `M_ARENA_MAX` (-8) and `M_MMAP_THRESHOLD` (-3), from malloc.h, are not in
    // Swift's Glibc module.
    typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
    let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
    let tunables = environment["GLIBC_TUNABLES"] ?? ""
    if environment["MALLOC_ARENA_MAX"] == nil, !tunables.contains("arena_max") {
      _ = mallopt(-8, arenas)
    }
    if environment["MALLOC_MMAP_THRESHOLD_"] == nil, !tunables.contains("mmap_threshold") {
      _ = mallopt(-3, mappedFrom)
    }
    #endif
  }
}
