import NavContract
import NavCore
import NavPersistence
import NavReport

/// The console's overview page: an app's fleet at a glance over the last days.
enum ConsoleFleetPage {
  /// The windows offered, in days; the first is the one shown unless another is asked for.
  static let windows = [14, 7, 30]

  /// The window `text` names, `nil` when it is not one offered.
  static func window(_ text: String?) -> Int? {
    guard let text else { return windows[0] }
    return Int(text).flatMap { windows.contains($0) ? $0 : nil }
  }

  static func page(
    _ overview: FleetOverview, days: Int, app: String, rejections: [(reason: RejectionReason, lines: Int)],
    rejectionsSince: Timestamp
  ) -> Markup {
    let options: [Markup] = windows.sorted().map {
      #"<option value="\#($0)"\#(Markup(selected: $0 == days))>the last \#($0) days</option>"#
    }
    let form: Markup = """
      <form class="inline" method="get" action="/console/fleet"><label for="days">Over\
      <select id="days" name="days">\(options)</select></label><button type="submit">Show</button></form>
      """
    let day = String(overview.since.rfc3339.prefix(10))
    let read: Markup =
      overview.complete
      ? "From the \(overview.sessionsRead) sessions active since \(day) (UTC days)."
      : """
      From the latest \(overview.sessionsRead) sessions active since \(day) \
      (UTC days): an overview reads at most \(overview.limits.sessions) sessions, \
      \(overview.limits.events) events or \(Int(overview.limits.time.components.seconds)) seconds' worth, \
      so earlier ones are left out.
      """
    let sessions = overview.days.map { ConsoleChart.Bar(label: $0.label, value: $0.sessions, said: "\($0.sessions)") }
    let events = overview.days.map { ConsoleChart.Bar(label: $0.label, value: $0.events, said: "\($0.events)") }
    let visited = overview.mostVisited.map {
      ConsoleChart.Bar(label: $0.screen, value: $0.views, said: $0.views == 1 ? "1 view" : "\($0.views) views")
    }
    let slowest = overview.slowest.map {
      ConsoleChart.Bar(
        label: $0.screen, value: Int($0.medianMilliseconds), said: TimelineSVG.duration($0.medianMilliseconds))
    }
    let rejected = rejections.map {
      ConsoleChart.Bar(label: $0.reason.rawValue, value: $0.lines, said: $0.lines == 1 ? "1 line" : "\($0.lines) lines")
    }
    let body: Markup = """
      <h1>The fleet at a glance</h1>\(form)<p class="note">\(read)</p>\
      \(section("Sessions per day", "By the day of their first event.", sessions, unit: "sessions", columns: ("Day", "Sessions")))\
      \(section("Events per day", "By the day the device recorded them.", events, unit: "events", columns: ("Day", "Events")))\
      \(section("The most visited screens", "Views of each screen, as the screen-views export counts them.", visited, columns: ("Screen", "Views")))\
      \(section("The slowest screens", "The median time a view stayed on screen in the foreground, for screens with at least \(FleetOverview.viewsForMedian) views.", slowest, columns: ("Screen", "Median view")))\
      \(failing(overview))\
      \(section("Rejected upload lines", "By reason, as this collector counted them since it started at \(rejectionsSince.rfc3339) (each collector counts its own).", rejected, columns: ("Reason", "Lines"), empty: "No line was rejected."))
      """
    return ConsolePages.page(title: "Fleet", app: app, body: body)
  }

  /// A plot with its heading, what it counts, and its figures as a table.
  private static func section(
    _ title: String, _ explained: String, _ bars: [ConsoleChart.Bar], unit: String? = nil,
    columns: (String, String), empty: String = "Nothing in this window."
  ) -> Markup {
    let plot: Markup
    if bars.allSatisfy({ $0.value == 0 }) && unit == nil || bars.isEmpty {
      plot = "<p>\(empty)</p>"
    } else if let unit {
      plot = ConsoleChart.columns(bars, title: title, unit: unit)
    } else {
      plot = ConsoleChart.bars(bars, title: title)
    }
    return """
      <section class="plot"><h2>\(title)</h2><p class="note">\(explained)</p>\(plot)\
      \(bars.isEmpty ? Markup.empty : ConsoleChart.table(bars, caption: title, columns: columns))</section>
      """
  }

  /// The sessions active in the window that fail verification, linked, and the list of them all.
  private static func failing(_ overview: FleetOverview) -> Markup {
    let all: Markup = """
      <p><a href="\("/console/sessions?failing=true&since=" + overview.since.rfc3339.prefix(10))">\
      The sessions list, filtered to those that fail</a> checks them all, a page at a time.</p>
      """
    let list: Markup
    if !overview.failingChecked {
      list = "<p>Not checked: the overview's time ran out first.</p>\(all)"
    } else if overview.failing.isEmpty {
      list =
        overview.moreFailing
        ? "<p>None of the sessions checked fails; the check stopped before the window's end.</p>\(all)"
        : "<p>Every session active in this window verifies.</p>"
    } else {
      let items: [Markup] = overview.failing.map {
        #"<li><a href="\#(ConsolePages.sessionPath($0))"><bdi>\#($0.rawValue)</bdi></a></li>"#
      }
      list = #"<ul class="sessions">\#(items)</ul>\#(overview.moreFailing ? all : .empty)"#
    }
    return """
      <section class="plot"><h2>Sessions that fail verification</h2>\
      <p class="note">Active in the window, latest first: their stored history does not replay to the \
      same hashes and states.</p>\(list)</section>
      """
  }

}

extension Markup {
  /// ` selected` for the chosen option.
  fileprivate init(selected: Bool) { self = selected ? " selected" : .empty }
}
