import NavCore
import NavPersistence

/// The index of `navstore report --all`: every session with its events, span, depth and
/// verification, linking to its page.
@_spi(Internals) public enum IndexPage {
  /// One session's line.
  public struct Entry: Sendable {
    /// The session as `sessions` lists it.
    public var summary: SessionSummary
    /// Whether it verified when its page was made.
    public var verified: Bool
    /// Its page's file name, relative to the index, or `nil` when no page could be made.
    public var file: String?
    /// Why no page could be made (its history no longer replays, say), so the index still
    /// names the session and says what is wrong with it.
    public var problem: String?

    /// An entry from its parts.
    public init(summary: SessionSummary, verified: Bool, file: String) {
      self.summary = summary
      self.verified = verified
      self.file = file
    }

    /// An entry for a session whose page could not be made, and why.
    public init(summary: SessionSummary, problem: String) {
      self.summary = summary
      self.verified = false
      self.problem = problem
    }
  }

  /// The page's HTML.
  public static func html(_ entries: [Entry]) -> String {
    var page = HTML.documentHead(title: "NavStore sessions")
    page += "<body><header><h1>NavStore sessions</h1>"
    let unreported = entries.count { $0.file == nil }
    page +=
      "<p class=\"note\">\(entries.count) session\(entries.count == 1 ? "" : "s"); each links to its report"
      + (unreported == 0 ? "" : ", except \(unreported) whose report could not be made (the reason is in its row)")
      + ".</p></header>"
    page +=
      "<main><div class=\"table-wrap\"><table><thead><tr><th>Session</th><th>Events</th><th>First event</th>"
      + "<th>Span</th><th>Depth</th><th>Verification</th></tr></thead><tbody>"
    for entry in entries {
      let summary = entry.summary
      // The forward time, as the exports count it: never negative when the clock went back.
      let span = TimelineSVG.duration(summary.durationMilliseconds)
      let name = HTML.escape(summary.id.rawValue)
      page += "<tr><td>" + (entry.file.map { "<a href=\"\(HTML.escape($0))\">\(name)</a>" } ?? name) + "</td>"
      page +=
        "<td>\(summary.eventCount)</td><td>\(summary.firstAt?.rfc3339 ?? "")</td><td>\(span)</td><td>\(summary.depth)</td>"
      if let problem = entry.problem {
        page += "<td class=\"failed\">&#10008; no report: \(HTML.escape(problem))</td>"
      } else {
        page +=
          entry.verified ? "<td class=\"verified\">&#10004; verified</td>" : "<td class=\"failed\">&#10008; FAILED</td>"
      }
      page += "</tr>"
    }
    return page + "</tbody></table></div></main></body></html>"
  }
}
