import Crypto
import Foundation
import NavContract
import NavCore
import NavPersistence

/// One session's report as a self-contained HTML page: inline CSS, script and SVG, nothing
/// fetched from anywhere, so it opens offline and from `file://`, attached to a ticket.
public enum ReportPage {
  /// Where a report's links to another session go.
  package enum SessionLinks: Sendable {
    /// To that session's report file, beside this one (`navstore report` writes them).
    case files
    /// To that session's page in the collector's console, in the whole window.
    case console
  }

  /// The page's HTML.
  public static func html(_ report: SessionReport) -> String { html(report, linking: .files) }

  /// The page's HTML, its links to other sessions going where `linking` says.
  package static func html(_ report: SessionReport, linking: SessionLinks) -> String {
    let title = "NavStore report: \(report.session.rawValue)"
    var page = HTML.documentHead(title: title)
    page +=
      "<body data-focus=\"\(report.focus)\"><header><h1>\(title)</h1>\(facts(report, linking: linking))</header><main>"
    page += "<section id=\"timeline\"><h2>Timeline</h2><div class=\"timeline-wrap\">\(TimelineSVG.render(report))</div>"
    page +=
      "<p class=\"legend\">Bars: the screen on top, one lane per presentation layer (a sheet or cover above the stack it covers). "
    page += "Marks: &#9650; the user's gestures, &#9679; the app's own changes. A dashed band: the app in the "
    page += "background, when no screen was seen. A dashed outline: the screen still on top at the last event, "
    page += "drawn on past it.</p></section>"
    page += explorer(report)
    page += eventTable(report)
    page += "</main>"
    page += templates(report)
    page += "<script>\(ReportScript.javascript)</script></body></html>"
    return page.html
  }

  private static func facts(_ report: SessionReport, linking: SessionLinks) -> Markup {
    var facts: Markup = "<dl class=\"facts\">"
    facts += "<dt>Session</dt><dd>\(report.session.rawValue)</dd>"
    facts +=
      "<dt>First event</dt><dd>\(report.firstAt.rfc3339)</dd><dt>Last event</dt><dd>\(report.lastAt.rfc3339)</dd>"
    let span = report.durationMilliseconds
    facts += "<dt>Span</dt><dd>\(TimelineSVG.duration(span)) (\(span) ms)</dd>"
    if report.clockJumps > 0 {
      let times = report.clockJumps == 1 ? "once" : "\(report.clockJumps) times"
      facts +=
        "<dt>Clock</dt><dd class=\"note\">&#9888; went back \(times): times are shown as the device recorded them, "
        + "and the span and timeline count each step back as 0 ms</dd>"
    }
    facts += "<dt>Events</dt><dd>\(report.eventCount)</dd>"
    facts += "<dt>Head hash</dt><dd class=\"hash\">\(report.headHash)</dd>"
    if report.verification == nil {
      facts +=
        "<dt>Verification</dt><dd class=\"note\">&#9888; not checked here: the session is longer than a report "
        + "verifies at once; <code>navstore verify</code> on its store checks it</dd>"
    } else if let failure = report.verification?.failure {
      facts +=
        "<dt>Verification</dt><dd class=\"failed\">&#10008; FAILED at seq \(failure.seq): \(failure.problem.description)</dd>"
    } else {
      facts +=
        "<dt>Verification</dt><dd class=\"verified\">&#10004; verified (hash chain, seqs, snapshots) when this report was made</dd>"
    }
    if let link = report.restoredFrom {
      let its: Markup =
        switch linking {
        case .files:
          "<a href=\"\(ReportFileName.of(link.session))#seq=\(link.seq)\">its report</a>, at that event, "
            + "when it is beside this one (<code>navstore report --with-ancestors</code> writes both)"
        case .console:
          "<a href=\"/console/sessions/\(ContractPath.segment(link.session.rawValue))\" target=\"_top\">its page</a>"
        }
      facts += "<dt>Continues</dt><dd>\(link.session.rawValue) after seq \(link.seq) (\(its))</dd>"
    }
    if let context = report.context {
      let rows: [(String, String?)] = [
        (
          "App",
          [context.appVersion, context.appBuild.map { "(build \($0))" }].compactMap { $0 }.joined(separator: " ")
        ),
        ("System", [context.osName, context.osVersion].compactMap { $0 }.joined(separator: " ")),
        ("Device", context.deviceModel), ("Locale", context.locale), ("Time zone", context.timeZone),
        ("User", context.userID),
        ("App context", context.app.isEmpty ? nil : JSONValue.object(context.app).canonicalString),
      ]
      for (name, value) in rows {
        guard let value, !value.isEmpty else { continue }
        facts += "<dt>\(name)</dt><dd>\(value)</dd>"
      }
    }
    if let launch = report.launch {
      facts += "<dt>Launch</dt><dd>\(launch.description)"
      if !launch.dropped.isEmpty {
        facts += "<ul class=\"dropped\">"
        for route in launch.dropped {
          let more = route.removedRouteCount - 1
          let with = more > 0 ? ", with \(more) more route\(more == 1 ? "" : "s")" : ""
          let why = report.omitsPayloads ? "" : ": " + route.error.description
          facts +=
            "<li>route \(route.index) (<code>\(route.screenName)</code>) in "
            + "\(route.path.description)\(with)\(why)</li>"
        }
        facts += "</ul>"
      }
      facts += "</dd>"
    }
    if !report.isWhole {
      facts +=
        "<dt>Shown</dt><dd>events \(report.window.lowerBound) to \(report.window.upperBound) of \(report.eventCount); "
        + "a report made at another seq shows the events around it</dd>"
    }
    if report.omitsPayloads { facts += "<dt>Payloads</dt><dd>left out (screens by name only, no causes)</dd>" }
    if report.states.isFull {
      facts +=
        "<dt>States</dt><dd>the states after the later events are not in this page, which keeps it small; "
        + "a report made at one of their seqs shows it</dd>"
    }
    return facts + "</dl>"
  }

  private static func explorer(_ report: SessionReport) -> Markup {
    let focusState = report.focusState
    // The profile the session's app played its steps for, when it kept it.
    let host = report.context?.host ?? .default
    var html: Markup = "<section id=\"explorer\"><h2>State at an event</h2><div class=\"controls\">"
    html +=
      "<label>Event <input type=\"range\" id=\"seq\" min=\"\(report.window.lowerBound)\" max=\"\(report.window.upperBound)\" "
      + "value=\"\(report.focus)\" step=\"1\"></label>"
    let options = HostProfile.allCases.map { profile -> Markup in
      "<option value=\"\(profile.rawValue)\"\(profile == host ? " selected" : "")>\(profile.rawValue)</option>"
    }
    html +=
      "<label>Host profile <select id=\"host\">\(options)"
      + "</select></label><label>Delay between steps (ms) <input type=\"number\" id=\"delay\" min=\"0\" max=\"86400000\" "
      + "step=\"50\" value=\"\(report.planDelayMilliseconds)\"></label>"
      + "</div><div class=\"explorer\"><div><h3 id=\"state-caption\">After seq \(report.focus)</h3>"
    html +=
      "<div class=\"panel\" id=\"state\" data-seq=\"\(report.focus)\">"
      + (focusState.map { StateTreeHTML.render($0, omitsPayloads: report.omitsPayloads) } ?? .empty) + "</div></div>"
    html +=
      "<div><h3>Restore plan from the launch state</h3><div class=\"panel\" id=\"plan\">"
      + (focusState.map { plan($0, host: host, delay: report.planDelayMilliseconds) } ?? .empty)
      + "</div></div></div></section>"
    return html
  }

  /// The restore plan of `state`, unless it is too large for a page.
  private static func plan(_ state: AnyCoordinator, host: HostProfile, delay: Int) -> Markup {
    guard state.routeCount(upTo: SessionReport.plannedStateRouteLimit) <= SessionReport.plannedStateRouteLimit else {
      return "<p class=\"note\">This state has \(state.measure.routes) routes: its plan is not drawn here. "
        + "<code>navstore plan</code> prints it.</p>"
    }
    return PlanHTML.render(state, host: host, delayMilliseconds: delay)
  }

  private static func eventTable(_ report: SessionReport) -> Markup {
    var html: Markup =
      "<section id=\"events\"><h2>Events</h2><p class=\"note\">Choose a row (click, or Enter) to see the state after it.</p>"
    html +=
      "<div class=\"table-wrap\"><table><thead><tr><th>Time</th><th>Seq</th><th>Origin</th><th>Operation</th>"
      + "<th>Screen on top</th><th class=\"cause\">Cause</th></tr></thead><tbody>"
    for event in report.events {
      let time = event.at.rfc3339
      html +=
        "<tr tabindex=\"0\" data-seq=\"\(event.seq)\" data-state=\"\(event.state.map(String.init) ?? "")\" data-time=\"\(time)\">"
      html += "<td class=\"time\">\(time)</td><td class=\"seq\">\(event.seq)</td>"
      html += "<td class=\"origin-\(event.origin.rawValue)\">\(event.origin.rawValue)</td>"
      html += "<td>\(event.summary)</td><td class=\"screen\">\(event.screen ?? "")</td>"
      html += "<td class=\"cause\">\(event.cause ?? "")</td></tr>"
    }
    return html + "</tbody></table></div></section>"
  }

  /// The states, as the shared table the script draws them from, and the restore plans the
  /// page carries, as templates.
  private static func templates(_ report: SessionReport) -> Markup {
    var html: Markup =
      "<script type=\"application/json\" id=\"states\">\(Markup.scriptData(report.states.json))</script>"
    for (reference, state) in report.plannedStates.sorted(by: { $0.key < $1.key }) {
      for host in HostProfile.allCases {
        html +=
          "<template id=\"plan-\(reference)-\(host.rawValue)\">"
          + "\(PlanHTML.render(state, host: host, delayMilliseconds: report.planDelayMilliseconds))</template>"
      }
    }
    return html
  }
}

extension ReportPage {
  /// A Content-Security-Policy under which a report page works and nothing else runs: its own
  /// inline style and script, by their SHA-256 (no other script, no fetch, no form, no plugin),
  /// framed only by its own origin. What a server that shows reports sends with them.
  package static let contentSecurityPolicy: String = {
    func digest(_ text: String) -> String {
      "'sha256-" + Data(SHA256.hash(data: Data(text.utf8))).base64EncodedString() + "'"
    }
    return
      "default-src 'none'; style-src \(digest(ReportStyle.css.html)); script-src \(digest(ReportScript.javascript.html)); "
      + "img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'"
  }()
}
