import NavCore
import NavPersistence

/// The index of `navstore report --all`: every session with its events, span, depth and
/// verification, linking to its page.
public enum IndexPage {
  /// One session's line.
  public struct Entry: Sendable {
    /// The session as `sessions` lists it.
    public var summary: SessionSummary
    /// Whether it verified when its page was made.
    public var verified: Bool
    /// Its page's file name, relative to the index.
    public var file: String

    /// An entry from its parts.
    public init(summary: SessionSummary, verified: Bool, file: String) {
      self.summary = summary
      self.verified = verified
      self.file = file
    }
  }

  /// The page's HTML.
  public static func html(_ entries: [Entry]) -> String {
    var page = HTML.documentHead(title: "NavStore sessions")
    page += "<body><header><h1>NavStore sessions</h1>"
    page += "<p class=\"note\">\(entries.count) session\(entries.count == 1 ? "" : "s"); each links to its report.</p></header>"
    page += "<main><div class=\"table-wrap\"><table><thead><tr><th>Session</th><th>Events</th><th>First event</th>"
      + "<th>Span</th><th>Depth</th><th>Verification</th></tr></thead><tbody>"
    for entry in entries {
      let summary = entry.summary
      var span = ""
      if let first = summary.firstAt, let last = summary.lastAt {
        span = TimelineSVG.duration(last.millisecondsSince1970.subtractingReportingOverflow(first.millisecondsSince1970).partialValue)
      }
      page += "<tr><td><a href=\"\(HTML.escape(entry.file))\">\(HTML.escape(summary.id.rawValue))</a></td>"
      page += "<td>\(summary.eventCount)</td><td>\(summary.firstAt?.rfc3339 ?? "")</td><td>\(span)</td><td>\(summary.depth)</td>"
      page += entry.verified ? "<td class=\"verified\">&#10004; verified</td>" : "<td class=\"failed\">&#10008; FAILED</td>"
      page += "</tr>"
    }
    return page + "</tbody></table></div></main></body></html>"
  }
}
