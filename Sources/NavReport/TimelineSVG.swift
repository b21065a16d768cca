import NavCore
import NavPersistence

/// The timeline: each period a screen was on top as a bar on a time axis, in a lane per
/// presentation layer (a sheet or cover above the stack it covers), and each event as a mark
/// below: a triangle for the user's gestures, a circle for the app's own changes, so shape, not
/// only colour, tells them apart; a dashed band across the lanes while the app was in the
/// background. An inline SVG, scaled to the page's width.
package enum TimelineSVG {
  /// One bar: a screen on top from one event until the next change, placed by the time since
  /// the first event shown, counting only the clock going forward.
  struct Bar: Equatable {
    var screen: String
    var layer: Int
    var firstSeq: Int
    var start: Int64
    var end: Int64
    var milliseconds: Int64 { end - start }
  }

  /// Each event's time on the axis: milliseconds since the first event shown, where a step
  /// back of the device's clock counts 0 (the exports' durations count the same way), so no
  /// bar is ever drawn backwards.
  static func offsets(of events: [SessionReport.Event]) -> [Int64] {
    var clock = ClockOrder()
    return events.map { event in
      clock.add(event.at, seq: event.seq)
      return clock.durationMilliseconds
    }
  }

  /// The bars of the events shown: consecutive events that leave the same screen on top, in the
  /// same layer, make one bar, which lasts until the next bar begins, or the app leaves (the
  /// last one until the last event). While the app is in the background, or after the session's
  /// end, there is no bar. So the bars add up to the time in the foreground of the events shown.
  static func bars(of events: [SessionReport.Event], offsets: [Int64]) -> [Bar] {
    var bars: [Bar] = []
    var onScreen = false
    for (event, offset) in zip(events, offsets) {
      let screen = event.screen ?? "?"
      let seen = event.phase == .foreground
      if onScreen, seen, let last = bars.last, last.screen == screen, last.layer == event.layer { continue }
      if onScreen { bars[bars.count - 1].end = offset }
      onScreen = seen
      if seen { bars.append(Bar(screen: screen, layer: event.layer, firstSeq: event.seq, start: offset, end: offset)) }
    }
    if onScreen, let last = offsets.last, !bars.isEmpty { bars[bars.count - 1].end = last }
    return bars
  }

  /// The periods the app was away, as offsets: from each event that left the foreground (a
  /// `background`) to the next that came back, or to the last event shown.
  static func awayPeriods(of events: [SessionReport.Event], offsets: [Int64]) -> [(start: Int64, end: Int64)] {
    var periods: [(start: Int64, end: Int64)] = []
    var leftAt: Int64?
    for (event, offset) in zip(events, offsets) {
      if event.phase == .background, leftAt == nil { leftAt = offset }
      if event.phase == .foreground, let start = leftAt {
        periods.append((start, offset))
        leftAt = nil
      }
    }
    if let start = leftAt, let last = offsets.last, last > start { periods.append((start, last)) }
    return periods
  }

  static let width = 1_000.0
  static let laneHeight = 30.0
  static let left = 110.0
  /// Past this many events, one mark per event would be a smear: the marks give way to the
  /// counts, said in the legend, and the bars lose their outlines.
  static let markedEventsLimit = 400

  static func render(_ report: SessionReport) -> Markup {
    let offsets = offsets(of: report.events)
    let bars = bars(of: report.events, offsets: offsets)
    let layers = (bars.map(\.layer).max() ?? 0) + 1
    guard let first = report.events.first, let lastOffset = offsets.last else { return .empty }
    // The screen on top at the session's last event is still there: the axis goes on a little
    // past it, so that the screen a session ended on (a deep link's, say) is a bar, not a line
    // of no width. A window of a longer session ends on no such screen.
    let endsOnScreen =
      report.events.last?.phase == .foreground && report.events.last?.seq == report.eventCount && !bars.isEmpty
    let axisEnd = lastOffset + (endsOnScreen ? max(lastOffset / 10, 1_000) : 0)
    let span = max(1, Double(axisEnd))
    let plot = width - left - 10
    func x(_ offset: Int64) -> Double { left + Double(offset) / span * plot }
    func y(layer: Int) -> Double { 10 + Double(layers - 1 - layer) * laneHeight }
    let marksY = 10 + Double(layers) * laneHeight + 8
    let height = marksY + 34
    let dense = report.events.count > markedEventsLimit
    var svg: Markup =
      "<svg class=\"timeline\(dense ? " dense" : "")\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-labelledby=\"timeline-title\">"
    svg +=
      "<title id=\"timeline-title\">Screens on top over time, \(bars.count) periods, and \(report.events.count) events</title>"
    for layer in 0..<layers {
      let label = layer == 0 ? "base stack" : "presented \(layer)"
      svg += "<text class=\"lane-label\" x=\"4\" y=\"\(format(y(layer: layer) + 19))\">\(label)</text>"
      svg +=
        "<line class=\"lane\" x1=\"\(Int(left))\" x2=\"\(Int(width - 10))\" "
        + "y1=\"\(format(y(layer: layer) + laneHeight - 2))\" y2=\"\(format(y(layer: layer) + laneHeight - 2))\"/>"
    }
    for away in awayPeriods(of: report.events, offsets: offsets) {
      let awayX = x(away.start)
      let awayWidth = max(1.5, x(away.end) - awayX)
      svg += "<g class=\"away\"><title>in the background for \(Self.duration(away.end - away.start))</title>"
      svg +=
        "<rect x=\"\(format(awayX))\" y=\"10\" width=\"\(format(awayWidth))\" height=\"\(format(Double(layers) * laneHeight))\"/>"
      if awayWidth > 90 {
        svg +=
          "<text class=\"bar-label\" x=\"\(format(awayX + 4))\" y=\"\(format(y(layer: 0) + 19))\">in the background</text>"
      }
      svg += "</g>"
    }
    for (index, bar) in bars.enumerated() {
      let open = endsOnScreen && index == bars.count - 1
      let barX = x(bar.start)
      let barWidth = max(1.5, x(open ? axisEnd : bar.end) - barX)
      svg +=
        "<g class=\"bar layer\(min(bar.layer, 5))\(open ? " open" : "")\" data-seq=\"\(bar.firstSeq)\" data-ms=\"\(bar.milliseconds)\">"
      svg +=
        "<title>\(bar.screen): \(bar.milliseconds) ms from seq \(bar.firstSeq)"
        + "\(open ? ", still on top at the last event" : "")</title>"
      svg +=
        "<rect x=\"\(format(barX))\" y=\"\(format(y(layer: bar.layer) + 3))\" width=\"\(format(barWidth))\" height=\"\(Int(laneHeight - 8))\" rx=\"3\"/>"
      // A label as long as the bar has room for: a narrow bar shows the start of its screen's name.
      if barWidth >= 16 {
        svg +=
          "<text class=\"bar-label\" x=\"\(format(barX + 4))\" y=\"\(format(y(layer: bar.layer) + 19))\">"
          + "\(ReportText.shortened(bar.screen, to: max(2, Int((barWidth - 4) / 7))))</text>"
      }
      svg += "</g>"
    }
    svg += "<text class=\"lane-label\" x=\"4\" y=\"\(format(marksY + 5))\">events</text>"
    if dense {
      let gestures = report.events.count { $0.origin == .user }
      svg +=
        "<text class=\"axis\" x=\"\(Int(left))\" y=\"\(format(marksY + 5))\">\(gestures) user gestures (&#9650;) and "
        + "\(report.events.count - gestures) app changes (&#9679;): too many to mark; see the table</text>"
    }
    for (event, offset) in zip(report.events, offsets) where !dense {
      let markX = format(x(offset))
      switch event.origin {
      case .user:
        svg +=
          "<path class=\"mark user\" d=\"M\(markX) \(format(marksY - 6)) l5 10 h-10 z\"><title>seq \(event.seq): user</title></path>"
      case .app:
        svg +=
          "<circle class=\"mark app\" cx=\"\(markX)\" cy=\"\(format(marksY))\" r=\"3.5\"><title>seq \(event.seq): app</title></circle>"
      }
    }
    svg += "<text class=\"axis\" x=\"\(Int(left))\" y=\"\(format(height - 4))\">\(first.at.rfc3339)</text>"
    svg +=
      "<text class=\"axis\" x=\"\(format(x(lastOffset)))\" y=\"\(format(height - 4))\" text-anchor=\"end\">+\(Self.duration(lastOffset))</text>"
    return svg + "</svg>"
  }

  /// A span in words a person reads at a glance (`850 ms`, `49.9 s`, `11.2 min`): the report's,
  /// and the console's list.
  package static func duration(_ milliseconds: Int64) -> String {
    if milliseconds < 1_000 { return "\(milliseconds) ms" }
    let seconds = Double(milliseconds) / 1_000
    if seconds < 120 { return format(seconds) + " s" }
    let minutes = seconds / 60
    if minutes < 120 { return format(minutes) + " min" }
    return format(minutes / 60) + " h"
  }

  /// A number to one decimal, without a trailing `.0`.
  private static func format(_ value: Double) -> String {
    let tenths = (value * 10).rounded()
    let whole = Int(tenths / 10)
    let fraction = Int(abs(tenths).truncatingRemainder(dividingBy: 10))
    return fraction == 0 ? "\(whole)" : "\(whole).\(fraction)"
  }

}
