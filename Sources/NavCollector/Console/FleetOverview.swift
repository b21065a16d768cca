import NavContract
import NavCore
import NavFleet
@_spi(Internals) import NavJSON
import NavPersistence

/// An app's fleet at a glance, over the last days: sessions and events per day, the screens
/// most visited and the slowest (by median time on screen), sessions that fail verification,
/// and the upload lines this collector rejected.
///
/// The work is bounded whatever the fleet's size: the sessions active in the window are read
/// latest first, and reading stops at `Limits`' sessions, events or time, whichever comes first;
/// the page then says how many it read. The figures are made from the same sessions, so they
/// agree with each other.
struct FleetOverview: Sendable {
  /// How much one overview reads at most.
  struct Limits: Sendable {
    /// Sessions read.
    var sessions = 2_000
    /// Events read (their histories are replayed to find the screens).
    var events = 200_000
    /// How long reading may take before the overview is made of what was read.
    var time = Duration.seconds(3)
  }

  /// The failing sessions listed (the sessions list shows them all).
  static let failingShown = 10
  /// A screen is ranked by its median time once it has this many views.
  static let viewsForMedian = 3
  /// Screens in each ranking.
  static let screensShown = 10

  /// One day of the window (UTC).
  struct Day: Sendable, Equatable {
    /// Days since 1970-01-01.
    let number: Int64
    /// Sessions whose first event is on this day.
    var sessions = 0
    /// Events recorded on this day.
    var events = 0

    /// The day as `2026-11-20`.
    var label: String { String(Timestamp(millisecondsSince1970: number * Self.milliseconds).rfc3339.prefix(10)) }

    static let milliseconds: Int64 = 86_400_000
  }

  /// A screen's views: how many, and the median time on screen.
  struct ScreenFigure: Sendable, Equatable {
    let screen: String
    let views: Int
    let medianMilliseconds: Int64
  }

  /// The window's days, oldest first.
  var days: [Day]
  /// The screens shown most often, most first.
  var mostVisited: [ScreenFigure] = []
  /// The screens with the longest median view (those with `viewsForMedian` views or more).
  var slowest: [ScreenFigure] = []
  /// Sessions active in the window that fail verification, latest first, at most
  /// `failingShown`; `moreFailing` when the list goes on.
  var failing: [SessionID] = []
  var moreFailing = false
  /// The sessions read, and whether they are all of the window's.
  var sessionsRead = 0
  var complete = true
  /// What reading was held to.
  var limits = Limits()
  /// The start of the window.
  var since: Timestamp { Timestamp(millisecondsSince1970: (days.first?.number ?? 0) * Day.milliseconds) }

  /// The overview of `app` over the `dayCount` days up to `now`'s.
  static func make(
    app: AppName, dayCount: Int, now: Timestamp, backend: any FleetBackend, limits: Limits = Limits()
  ) async throws(FleetError) -> FleetOverview {
    let today = now.millisecondsSince1970 / Day.milliseconds
    var overview = FleetOverview(days: (today - Int64(dayCount) + 1...today).map { Day(number: $0) }, limits: limits)
    let since = overview.since
    let started = ContinuousClock.now
    var eventsRead = 0
    var views: [String: [Int64]] = [:]
    var query = SessionQuery()
    query.order = .lastActivity
    query.since = since
    reading: while true {
      let page = try await backend.sessions(
        app: app,
        SessionsPageRequest(filters: query, screen: nil, failing: nil, limit: 500, omittingPayloads: true))
      for line in page.lines {
        guard let row = try? JSONParser.parse(line).objectValue, let text = row["session"]?.stringValue,
          let id = try? SessionID(text), case .number(let count)? = row["events"]
        else { continue }
        let events = Int(count)
        guard overview.sessionsRead < limits.sessions, eventsRead + events <= limits.events,
          ContinuousClock.now - started < limits.time
        else {
          overview.complete = false
          break reading
        }
        let history = try await backend.history(of: id, app: app, from: 1, to: events)
        overview.sessionsRead += 1
        eventsRead += events
        overview.count(history)
        do {
          for view in try ScreenTimes.views(of: history) { views[view.screen, default: []].append(view.milliseconds) }
        } catch {
          // A history that no longer replays shows among the failing sessions; its screens
          // count as far as they went.
          continue
        }
      }
      guard let last = page.resumeAfter else { break }
      query.after = (last.lastAt ?? Timestamp(millisecondsSince1970: 0), last.id)
    }
    overview.rank(views)
    var failingQuery = SessionQuery()
    failingQuery.order = .lastActivity
    failingQuery.since = since
    let failing = try await backend.sessions(
      app: app,
      SessionsPageRequest(
        filters: failingQuery, screen: nil, failing: true, limit: failingShown, omittingPayloads: true))
    overview.failing = failing.lines.compactMap {
      (try? JSONParser.parse($0).objectValue)?["session"]?.stringValue.flatMap { try? SessionID($0) }
    }
    overview.moreFailing = failing.resumeAfter != nil
    return overview
  }

  /// Counts a session's first event on its day, and each event on its own, within the window.
  private mutating func count(_ history: [AnyEvent]) {
    guard let first = days.first?.number else { return }
    func index(_ time: Timestamp) -> Int? {
      let offset = time.millisecondsSince1970 / Day.milliseconds - first
      return offset >= 0 && offset < Int64(days.count) ? Int(offset) : nil
    }
    if let start = history.first, let day = index(start.at) { days[day].sessions += 1 }
    for event in history {
      if let day = index(event.at) { days[day].events += 1 }
    }
  }

  /// The rankings, from every view's time by screen.
  private mutating func rank(_ views: [String: [Int64]]) {
    let figures = views.map { screen, times in
      let sorted = times.sorted()
      // The lower middle of an even count: a time some view really took.
      return ScreenFigure(screen: screen, views: times.count, medianMilliseconds: sorted[(sorted.count - 1) / 2])
    }
    mostVisited = Array(
      figures.sorted { ($0.views, $1.screen) > ($1.views, $0.screen) }.prefix(Self.screensShown))
    slowest = Array(
      figures.filter { $0.views >= Self.viewsForMedian }
        .sorted { ($0.medianMilliseconds, $1.screen) > ($1.medianMilliseconds, $0.screen) }
        .prefix(Self.screensShown))
  }
}

/// Overviews made in the last minute, by app and window: a console reloaded, or many support
/// engineers on one app, cost one overview's work a minute. Callers asking while one is being
/// made wait for it.
actor FleetOverviewCache {
  private struct Key: Hashable {
    let app: AppName
    let days: Int
  }

  private var made: [Key: (at: ContinuousClock.Instant, task: Task<FleetOverview, any Error>)] = [:]
  /// How long an overview is shown before it is made again.
  static let lifetime = Duration.seconds(60)

  /// The overview of `app` over `days` days, made by `make` when there is none of the last
  /// minute.
  func overview(
    app: AppName, days: Int, make: @escaping @Sendable () async throws -> FleetOverview
  ) async throws -> FleetOverview {
    let now = ContinuousClock.now
    made = made.filter { now - $0.value.at < Self.lifetime }
    let key = Key(app: app, days: days)
    if let entry = made[key] { return try await entry.task.value }
    let task = Task { try await make() }
    made[key] = (now, task)
    do {
      return try await task.value
    } catch {
      // A failure is not kept: the next request tries again.
      made[key] = nil
      throw error
    }
  }
}
