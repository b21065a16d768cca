import NavContract
import NavCore
import NavPersistence
import NavReport

/// One session in the console: what it is, where it came from, its downloads, and its report
/// (the page `navstore report` writes) in a frame, with a URL of its own to paste in a ticket.
enum ConsoleSessionPage {
  static func page(_ summary: SessionSummary, app: String) -> Markup {
    let id = summary.id
    var facts: Markup = "<dt>Events</dt><dd>\(summary.eventCount)</dd>"
    if let first = summary.firstAt, let last = summary.lastAt {
      facts += "<dt>From</dt><dd>\(first.rfc3339)</dd><dt>To</dt><dd>\(last.rfc3339)</dd>"
    }
    facts += "<dt>Depth now</dt><dd>\(summary.depth)</dd>"
    if let link = summary.restoredFrom {
      facts += """
        <dt>Restored from</dt><dd><a href="\(ConsolePages.sessionPath(link.session))"><bdi>\(link.session.rawValue)</bdi></a> \
        after its event \(link.seq)</dd>
        """
    }
    if let launch = summary.launch {
      let words = LaunchRecord.describe(launch, reason: summary.launchReason, droppedRoutes: summary.droppedRoutes)
      let listed = summary.droppedRoutes > 0 ? " (the report lists each, with why)" : ""
      facts += "<dt>Launch</dt><dd>\(words)\(listed)</dd>"
    }
    if let context = summary.context {
      let app = [context.appVersion, context.appBuild.map { "(build \($0))" }].compactMap { $0 }.joined(separator: " ")
      let system = [context.osName, context.osVersion].compactMap { $0 }.joined(separator: " ")
      for (name, value) in [("App", app), ("System", system), ("Device", context.deviceModel ?? "")]
      where !value.isEmpty {
        facts += "<dt>\(name)</dt><dd>\(value)</dd>"
      }
    }
    let report = ConsolePages.sessionPath(id, "/report")
    return ConsolePages.page(
      title: "Session \(id.rawValue)", app: app,
      body: """
        <h1>Session <bdi>\(id.rawValue)</bdi></h1><dl class="facts">\(facts)</dl>\
        <ul class="actions"><li><a href="\(ConsolePages.sessionPath(id, "/history.jsonl"))" download>\
        Download its history (JSON Lines)</a></li>\
        <li><a href="\(ConsolePages.sessionPath(id, "/report.html"))" download>Download its report (HTML)</a></li>\
        <li><a href="\(ConsolePages.sessionPath(id, "/fixture.jsonl"))" download>\
        Download it as a regression test's fixture (with the sessions it continues)</a></li>\
        <li><a href="\(report)">Open the report alone</a></li>\
        <li><a href="/console/sessions?restored_from=\(ContractPath.segment(id.rawValue))">\
        Sessions that continue it</a></li></ul>\
        <iframe class="report" src="\(report)" title="The report of session \(id.rawValue)"></iframe>
        """)
  }
}
