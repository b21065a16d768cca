import NavCore
import NavPersistence

/// The index of `navstore report --all`: every session, the latest first, with its events,
/// span, depth, the session it continues, its app and its verification, linking to its page;
/// a box finds sessions by any text of their row.
package enum IndexPage {
  /// One session's line.
  package struct Entry: Sendable {
    /// The session as `sessions` lists it.
    package var summary: SessionSummary
    /// Whether it verified when its page was made.
    package var verified: Bool
    /// Its page's file name, relative to the index, or `nil` when no page could be made.
    package var file: String?
    /// Why no page could be made (its history no longer replays, say), so the index still
    /// names the session and says what is wrong with it.
    package var problem: String?

    /// An entry from its parts.
    package init(summary: SessionSummary, verified: Bool, file: String) {
      self.summary = summary
      self.verified = verified
      self.file = file
    }

    /// An entry for a session whose page could not be made, and why.
    package init(summary: SessionSummary, problem: String) {
      self.summary = summary
      self.verified = false
      self.problem = problem
    }
  }

  /// The page's HTML: the latest sessions first, each with the session it continues (linked
  /// when its page is in the index), and a box that finds sessions by any text of their row.
  package static func html(_ entries: [Entry]) -> String {
    var page = HTML.documentHead(title: "NavStore sessions")
    page += "<body><header><h1>NavStore sessions</h1>"
    let unreported = entries.count { $0.file == nil }
    let except: Markup =
      unreported == 0 ? .empty : ", except \(unreported) whose report could not be made (the reason is in its row)"
    page +=
      "<p class=\"note\">\(entries.count) session\(entries.count == 1 ? "" : "s"), the latest activity first; each links "
      + "to its report\(except).</p>"
    // Shown by the script, which does the finding: without it, the box would do nothing.
    page +=
      "<p class=\"find\" id=\"find-box\" hidden><label>Find a session (any text of its row) "
      + "<input type=\"search\" id=\"find\"></label> <span id=\"found\" role=\"status\"></span></p>"
    page += "</header>"
    page +=
      "<main><div class=\"table-wrap\"><table id=\"sessions\"><thead><tr><th>Session</th><th>Last event</th><th>Events</th>"
      + "<th>Span</th><th>Depth</th><th>Restored from</th><th>App</th><th>Verification</th></tr></thead><tbody>"
    let files = Dictionary(entries.compactMap { entry in entry.file.map { (entry.summary.id, $0) } }) { first, _ in
      first
    }
    let latestFirst = entries.sorted {
      let (left, right) = ($0.summary, $1.summary)
      let (leftAt, rightAt) = (left.lastAt?.millisecondsSince1970 ?? .min, right.lastAt?.millisecondsSince1970 ?? .min)
      if leftAt != rightAt { return leftAt > rightAt }
      return left.id.rawValue < right.id.rawValue
    }
    for entry in latestFirst {
      let summary = entry.summary
      // The forward time, as the exports count it: never negative when the clock went back.
      let span = TimelineSVG.duration(summary.durationMilliseconds)
      let name = Markup.text(summary.id.rawValue)
      page += "<tr><td>" + (entry.file.map { "<a href=\"\($0)\">\(name)</a>" } ?? name) + "</td>"
      page +=
        "<td>\(summary.lastAt?.rfc3339 ?? "")</td><td>\(summary.eventCount)</td><td>\(span)</td><td>\(summary.depth)</td>"
      if let link = summary.restoredFrom {
        let ancestor = Markup.text(link.session.rawValue)
        page +=
          "<td>"
          + (files[link.session].map { "<a href=\"\($0)#seq=\(link.seq)\">\(ancestor)</a>" } ?? ancestor)
          + " after seq \(link.seq)</td>"
      } else {
        page += "<td></td>"
      }
      let app = [summary.context?.appVersion, summary.context?.osName, summary.context?.osVersion]
        .compactMap { $0 }.joined(separator: " ")
      page += "<td>\(app)</td>"
      if let problem = entry.problem {
        page += "<td class=\"failed\">&#10008; no report: \(problem)</td>"
      } else {
        page +=
          entry.verified ? "<td class=\"verified\">&#10004; verified</td>" : "<td class=\"failed\">&#10008; FAILED</td>"
      }
      page += "</tr>"
    }
    page += "</tbody></table></div></main><script>\(script)</script></body></html>"
    return page.html
  }

  /// Finding: the rows whose text holds what is typed (in any case) stay, the others hide.
  package static let script: Markup = """
    (function () {
      "use strict";
      var box = document.getElementById("find-box"), field = document.getElementById("find");
      var found = document.getElementById("found");
      var rows = Array.prototype.slice.call(document.querySelectorAll("#sessions tbody tr"));
      var texts = rows.map(function (row) { return row.textContent.toLowerCase(); });
      box.hidden = false;
      field.addEventListener("input", function () {
        var wanted = field.value.trim().toLowerCase(), shown = 0;
        rows.forEach(function (row, index) {
          var keep = wanted === "" || texts[index].indexOf(wanted) !== -1;
          row.hidden = !keep;
          if (keep) { shown += 1; }
        });
        found.textContent = wanted === "" ? "" : shown + " of " + rows.length;
      });
      document.documentElement.setAttribute("data-script", "ran");
    })();
    """
}
