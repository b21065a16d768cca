import Foundation

/// What the process uses, read from `/proc` when the metrics are scraped (the figures Prometheus
/// names `process_*`). On a system without `/proc`, the ones it cannot read are `nil` and left
/// out.
struct ProcessFigures {
  var residentBytes: Int?
  var virtualBytes: Int?
  var cpuSeconds: Double?
  var openDescriptors: Int?
  var maximumDescriptors: Int?
  var startTime: Double?

  /// The figures as of now.
  static func now() -> ProcessFigures {
    var figures = ProcessFigures()
    let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
    let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
    if let statm = text("/proc/self/statm")?.split(separator: " "), statm.count >= 2,
      let size = Int(statm[0]), let resident = Int(statm[1])
    {
      figures.virtualBytes = size * pageSize
      figures.residentBytes = resident * pageSize
    }
    // /proc/self/stat: the command's name is in parentheses and may hold spaces; the fields
    // counted here come after its closing one (utime is field 14, stime 15, starttime 22).
    if let stat = text("/proc/self/stat"), let close = stat.lastIndex(of: ")"), ticks > 0 {
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      if fields.count > 19, let user = Double(fields[11]), let system = Double(fields[12]),
        let start = Double(fields[19])
      {
        figures.cpuSeconds = (user + system) / ticks
        if let boot = text("/proc/stat")?.split(separator: "\n").first(where: { $0.hasPrefix("btime ") }),
          let bootTime = Double(boot.dropFirst("btime ".count).trimmingCharacters(in: .whitespaces))
        {
          figures.startTime = bootTime + start / ticks
        }
      }
    }
    if let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
      figures.openDescriptors = descriptors.count
    }
    #if os(Linux)
    var limit = rlimit()
    if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < UInt(Int.max) {
      figures.maximumDescriptors = Int(limit.rlim_cur)
    }
    #endif
    return figures
  }

  private static func text(_ path: String) -> String? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
