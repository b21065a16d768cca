@_spi(Internals) import NavArchive
import NavContract
import NavCore
import NavFleet
import NavJSON
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
    /// The work looking for failing sessions may do (`WorkBudget`'s units), within what is
    /// left of the time.
    var failingWork = SessionsPage.workLimit / 4
  }

  /// The failing sessions listed (the sessions list shows them all).
  static let failingShown = 10
  /// A screen is ranked by its median time once it has this many views.
  static let viewsForMedian = 3
  /// Screens in each ranking.
  static let screensShown = 10
  /// Events read from the store at a time.
  static let chunkEvents = 64

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
  /// Whether the failing sessions were looked for (not when the overview's time ran out first).
  var failingChecked = true
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
    // Up to now: a session dated ahead of the collector's clock must not take the reading.
    query.readUpTo(now)
    reading: while true {
      let page = try await backend.sessions(
        app: app,
        SessionsPageRequest(filters: query, screen: nil, failing: nil, limit: 500, omittingPayloads: true))
      for line in page.lines {
        guard let row = try? JSONParser.parse(line).objectValue, let text = row["session"]?.stringValue,
          let id = try? SessionID(text), case .number(let count)? = row["events"]
        else { continue }
        let events = Int(count)
        guard overview.sessionsRead < limits.sessions, eventsRead < limits.events,
          ContinuousClock.now - started < limits.time
        else {
          overview.complete = false
          break reading
        }
        // A session longer than what is left of the budget is passed over, not the end of the
        // reading: one long session, kept the latest, cannot leave the overview empty.
        guard eventsRead + events <= limits.events else {
          overview.complete = false
          continue
        }
        overview.sessionsRead += 1
        eventsRead += events
        // A piece at a time: memory holds a few dozen events, whatever a session's size.
        var screens = ScreenTimes()
        var replays = true
        for from in stride(from: 1, through: events, by: chunkEvents) {
          let chunk = try await backend.history(of: id, app: app, from: from, to: min(events, from + chunkEvents - 1))
          overview.count(chunk, startingTheSession: from == 1)
          if replays {
            do throws(HistoryError) {
              try screens.take(chunk)
            } catch {
              // A history that no longer replays is among the failing sessions; its screens
              // count as far as they went.
              replays = false
            }
          }
          if ContinuousClock.now - started >= limits.time, from + chunkEvents <= events {
            overview.complete = false
            for view in screens.views { views[view.screen, default: []].append(view.milliseconds) }
            break reading
          }
        }
        if replays { try? screens.finish() }
        for view in screens.views { views[view.screen, default: []].append(view.milliseconds) }
      }
      guard let last = page.resumeAfter else { break }
      query.after = (last.lastAt ?? Timestamp(millisecondsSince1970: 0), last.id)
    }
    overview.rank(views)
    var failingQuery = SessionQuery()
    failingQuery.order = .lastActivity
    failingQuery.since = since
    failingQuery.readUpTo(now)
    // The failing sessions in what is left of the time (a second at least) and of the events:
    // the list's own filter, which bounds its rows and replays too.
    var request = SessionsPageRequest(
      filters: failingQuery, screen: nil, failing: true, limit: failingShown, omittingPayloads: true)
    request.workLimit = limits.failingWork
    let failingRequest = request
    let failing: SessionsPage
    do {
      failing = try await TimeLimit.run(within: max(.seconds(1), limits.time - (ContinuousClock.now - started))) {
        try await backend.sessions(app: app, failingRequest)
      }
    } catch is TimeLimit.Expired {
      overview.failingChecked = false
      return overview
    } catch let error as FleetError {
      throw error
    } catch {
      throw .history(.caller(CallerError(error)))
    }
    overview.failing = failing.lines.compactMap {
      (try? JSONParser.parse($0).objectValue)?["session"]?.stringValue.flatMap { try? SessionID($0) }
    }
    overview.moreFailing = failing.resumeAfter != nil
    return overview
  }

  /// Counts each event on its day, within the window, and a session's first on the sessions'.
  private mutating func count(_ history: [AnyEvent], startingTheSession: Bool) {
    guard let first = days.first?.number else { return }
    func index(_ time: Timestamp) -> Int? {
      let offset = time.millisecondsSince1970 / Day.milliseconds - first
      return offset >= 0 && offset < Int64(days.count) ? Int(offset) : nil
    }
    if startingTheSession, let start = history.first, let day = index(start.at) { days[day].sessions += 1 }
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
/// made wait for it; its minute starts when it is made.
actor FleetOverviewCache {
  private struct Key: Hashable {
    let app: AppName
    let days: Int
  }

  private struct Entry {
    /// Which making this is, so that a failure forgets only its own.
    let number: Int
    let task: Task<FleetOverview, any Error>
    /// When it was made; `nil` while it is being made.
    var madeAt: ContinuousClock.Instant?
  }

  private var entries: [Key: Entry] = [:]
  private var made = 0
  /// How long an overview is shown before it is made again.
  static let lifetime = Duration.seconds(60)

  /// The overview of `app` over `days` days, made by `make` when there is none of the last
  /// minute.
  func overview(
    app: AppName, days: Int, make: @escaping @Sendable () async throws -> FleetOverview
  ) async throws -> FleetOverview {
    let now = ContinuousClock.now
    entries = entries.filter { $0.value.madeAt.map { now - $0 < Self.lifetime } ?? true }
    let key = Key(app: app, days: days)
    if let entry = entries[key] { return try await entry.task.value }
    made += 1
    let number = made
    let task = Task { try await make() }
    entries[key] = Entry(number: number, task: task)
    do {
      let overview = try await task.value
      if entries[key]?.number == number { entries[key]?.madeAt = .now }
      return overview
    } catch {
      // A failure is not kept: the next request tries again.
      if entries[key]?.number == number { entries[key] = nil }
      throw error
    }
  }
}
