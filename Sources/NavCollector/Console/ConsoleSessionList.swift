import Hummingbird
import NavContract
import NavCore
import NavFleet
import NavJSON
import NavPersistence
import NavReport

/// The console's list of an app's sessions: the latest first, a page at a time through the API's
/// cursor, filtered as `GET /v1/sessions` filters (time range, context fields, a screen shown,
/// verification), by the start of their id, or by the session they continue; and a box that
/// opens a session by its id.
struct ConsoleSessionList {
  /// Sessions on a page.
  static let pageSize = 50

  /// The filters as the form sends them: empty fields are no filter.
  struct Filters {
    var since: String?
    var until: String?
    var appVersion: String?
    var deviceModel: String?
    var osVersion: String?
    var screen: String?
    var failing: Bool?
    var idPrefix: String?
    var restoredFrom: String?
    var after: String?

    init(_ request: Request) {
      var values: [String: String] = [:]
      for (key, value) in request.uri.queryParameters where !value.isEmpty { values[String(key)] = String(value) }
      since = values["since"]
      until = values["until"]
      appVersion = values["app_version"]
      deviceModel = values["device_model"]
      osVersion = values["os_version"]
      screen = values["screen"]
      failing = values["failing"].map { $0 == "true" }
      idPrefix = values["id_prefix"]
      restoredFrom = values["restored_from"]
      after = values["after"]
    }

    /// The query that shows these filters again, with `after` for the next page.
    func query(after next: String?) -> String {
      let pairs: [(String, String?)] = [
        ("id_prefix", idPrefix), ("restored_from", restoredFrom), ("since", since), ("until", until),
        ("app_version", appVersion), ("device_model", deviceModel),
        ("os_version", osVersion), ("screen", screen), ("failing", failing.map { $0 ? "true" : "false" }),
        ("after", next),
      ]
      return pairs.compactMap { name, value in value.map { name + "=" + ContractPath.segment($0) } }
        .joined(separator: "&")
    }
  }

  /// The page of sessions `filters` ask for; a filter that is not one is said on the page.
  static func page(_ filters: Filters, app: AppName, backend: any FleetBackend) async throws -> (Markup, Bool) {
    var query = SessionQuery()
    query.order = .lastActivity
    do throws(QueryTimeError) {
      if let since = filters.since { query.since = try Timestamp(query: since) }
      if let until = filters.until { query.until = try Timestamp(query: until) }
    } catch {
      return (
        listing(
          filters, app: app, rows: [], checks: [:], next: nil, problem: "A time is not one: \(error.description)"),
        false
      )
    }
    query.idPrefix = filters.idPrefix
    if let text = filters.restoredFrom {
      guard let id = try? SessionID(text) else {
        return (
          listing(filters, app: app, rows: [], checks: [:], next: nil, problem: "That is not a session id."), false
        )
      }
      query.continuing = id
    }
    query.appVersion = filters.appVersion
    query.deviceModel = filters.deviceModel
    query.osVersion = filters.osVersion
    if let text = filters.after {
      guard let cursor = SessionCursor(text), cursor.sort == .last else {
        return (
          listing(
            filters, app: app, rows: [], checks: [:], next: nil, problem: "That page no longer exists; start again."),
          false
        )
      }
      query.after = (cursor.lastAt ?? Timestamp(millisecondsSince1970: 0), cursor.id)
    }
    // The first page begins at the collector's clock: a session dated ahead stands above none.
    query.readUpTo(.now)
    let page = try await backend.sessions(
      app: app,
      SessionsPageRequest(
        filters: query, screen: filters.screen, failing: filters.failing, limit: pageSize, omittingPayloads: true))
    let rows = page.lines.compactMap { try? JSONParser.parse($0).objectValue }
    let next = page.resumeAfter.map { SessionCursor(after: $0, sort: .last).text }
    let checks = try await verification(of: rows, filteredBy: filters.failing, app: app, backend: backend)
    return (
      listing(filters, app: app, rows: rows, checks: checks, next: next, problem: nil, unchecked: page.unchecked), true
    )
  }

  /// What a row's verification column says.
  enum Check: Equatable {
    case verifies
    /// Fails, at this seq when it was replayed here.
    case fails(seq: Int?)
    /// Not replayed here: the page's budget was spent (the session's own page says).
    case unchecked
  }

  /// The work a page may do to fill its verification column (`WorkBudget`'s units: about
  /// 25,000 events of an ordinary session), and how long it may take.
  static let verificationWork = 16 * 1024 * 1024
  static let verificationTime = Duration.seconds(2)

  /// Each row's verification: replayed while the page's budget lasts (the latest rows first, as
  /// listed), charged event by event, and known already for the rows a verification filter let
  /// through.
  static func verification(
    of rows: [[String: JSONValue]], filteredBy failing: Bool?, app: AppName, backend: any FleetBackend,
    work: Int = verificationWork
  ) async throws(FleetError) -> [String: Check] {
    var checks: [String: Check] = [:]
    var budget = WorkBudget(units: work, time: verificationTime)
    for row in rows {
      guard let text = row["session"]?.stringValue, let id = try? SessionID(text) else { continue }
      // Listed as verifying, it was replayed by the filter: nothing to add.
      if failing == false {
        checks[text] = .verifies
        continue
      }
      // Filtered by verification, the filter already replayed it.
      let known = failing.map { $0 ? Check.fails(seq: nil) : .verifies }
      guard !budget.isSpent else {
        checks[text] = known ?? .unchecked
        continue
      }
      let verified = try await backend.verify(id, app: app, within: budget)
      budget = verified.budget
      checks[text] = verified.result.map { $0.failure.map { .fails(seq: $0.seq) } ?? .verifies } ?? known ?? .unchecked
    }
    return checks
  }

  private static func listing(
    _ filters: Filters, app: AppName, rows: [[String: JSONValue]], checks: [String: Check], next: String?,
    problem: String?, unchecked: [SessionID] = []
  ) -> Markup {
    func field(_ name: String, _ label: String, _ value: String?, hint: String = "") -> Markup {
      """
      <label for="\(name)">\(label)<input id="\(name)" name="\(name)" value="\(value ?? "")" \
      placeholder="\(hint)"></label>
      """
    }
    let failing = filters.failing
    let form: Markup = """
      <form class="filters" method="get" action="/console/sessions" role="search" aria-label="Filter the sessions">\
      \(field("id_prefix", "Id starts with", filters.idPrefix))\
      \(field("restored_from", "Restored from", filters.restoredFrom, hint: "a session id"))\
      \(field("since", "Active since", filters.since, hint: "2026-11-20"))\
      \(field("until", "Active until", filters.until, hint: "2026-11-21T18:00"))\
      \(field("app_version", "App version", filters.appVersion))\
      \(field("device_model", "Device", filters.deviceModel))\
      \(field("os_version", "System version", filters.osVersion))\
      \(field("screen", "Showed the screen", filters.screen, hint: "checkout"))\
      <label for="failing">Verification<select id="failing" name="failing">\
      <option value=""\(failing == nil ? " selected" : "")>any</option>\
      <option value="false"\(failing == false ? " selected" : "")>verifies</option>\
      <option value="true"\(failing == true ? " selected" : "")>fails</option></select></label>\
      <button type="submit">Show</button></form>\
      <form class="filters" method="get" action="/console/open" aria-label="Open a session by its id">\
      <label for="open-id">Session id<input id="open-id" name="id" required></label>\
      <button type="submit">Open</button></form>
      """
    let said: Markup = problem.map { #"<p class="problem" role="alert">\#($0)</p>"# } ?? .empty
    let body: Markup
    if rows.isEmpty {
      body = problem == nil ? "<p>No session matches.</p>" : .empty
    } else {
      body = """
        <div class="table-wrap"><table><caption class="skip">Sessions, latest activity first</caption>\
        <thead><tr><th scope="col">Session</th><th scope="col">Last event (UTC)</th><th scope="col">Span</th>\
        <th scope="col">Events</th><th scope="col">Depth</th><th scope="col">Restored from</th>\
        <th scope="col">App</th><th scope="col">Device</th><th scope="col">Verification</th></tr></thead><tbody>\
        \(rows.map { row($0, check: checks[$0["session"]?.stringValue ?? ""] ?? .unchecked) })</tbody></table></div>
        """
    }
    let more: Markup =
      next.map {
        #"<nav class="pages" aria-label="Pages"><a href="/console/sessions?\#(filters.query(after: $0))">Next page</a></nav>"#
      }
      ?? .empty
    // Sessions the screen or verification filter could not tell about within a page's work.
    var passedOver = Markup.empty
    if !unchecked.isEmpty {
      var links = Markup.empty
      for (index, id) in unchecked.enumerated() {
        if index > 0 { links += ", " }
        links += #"<a href="\#(ConsolePages.sessionPath(id))">\#(id.rawValue)</a>"#
      }
      passedOver =
        #"<p class="note">Too long for this page to tell whether they match the filters; open each one: \#(links)</p>"#
    }
    return ConsolePages.page(
      title: "Sessions", app: app.rawValue, body: "<h1>Sessions</h1>\(form)\(said)\(body)\(passedOver)\(more)")
  }

  /// A verification in words, with a sign that is not only a colour.
  private static func said(_ check: Check) -> Markup {
    switch check {
    case .verifies: #"<span class="ok">&#10004; verifies</span>"#
    case .fails(let seq?): #"<span class="bad">&#10008; fails at seq \#(seq)</span>"#
    case .fails(nil): #"<span class="bad">&#10008; fails</span>"#
    case .unchecked:
      #"<span class="muted" title="Too long to replay on this page: its own page says">not checked here</span>"#
    }
  }

  /// A time of the export (`2026-11-21T10:00:00.000Z`) as a person reads it in a narrow column
  /// (`2026-11-21 10:00:00`, UTC as the heading says), the exact time kept for the machine.
  private static func time(_ text: String) -> Markup {
    guard text.count >= 19 else { return .text(text) }
    let shown = text.prefix(10) + " " + text.dropFirst(11).prefix(8)
    return #"<time datetime="\#(text)">\#(String(shown))</time>"#
  }

  /// One session's row, from its line of the sessions export.
  private static func row(_ line: [String: JSONValue], check: Check) -> Markup {
    func text(_ name: String) -> String { line[name]?.stringValue ?? "" }
    func number(_ name: String) -> Int {
      if case .number(let value)? = line[name] { return Int(value) }
      return 0
    }
    let id = (try? SessionID(text("session")))
    let link: Markup =
      id.map { #"<a href="\#(ConsolePages.sessionPath($0))">\#($0.rawValue)</a>"# } ?? .text(text("session"))
    let restored: Markup =
      (try? SessionID(text("restored_from_session"))).map {
        #"<a href="\#(ConsolePages.sessionPath($0))">\#($0.rawValue)</a>"#
      } ?? .empty
    let app = [text("app_version"), text("os_name"), text("os_version")].filter { !$0.isEmpty }.joined(separator: " ")
    return """
      <tr><td class="id">\(link)</td><td>\(time(text("last_at")))</td><td class="number">\(TimelineSVG.duration(Int64(number("duration_ms"))))</td>\
      <td class="number">\(number("events"))</td><td class="number">\(number("depth"))</td><td class="id">\(restored)</td>\
      <td>\(app)</td><td>\(text("device_model"))</td><td>\(said(check))</td></tr>
      """
  }
}
