import NavCore

/// Which sessions a listing shows, and in what order: how support finds "the user on version
/// 2.3, on an iPhone, around 3 pm". Each filter that is set must hold; text filters match the
/// session's context exactly. What a row cannot tell (a screen visited, verification) the
/// listing checks on the sessions that pass these.
package struct SessionQuery: Hashable, Sendable {
  /// The order of a listing.
  package enum Order: Hashable, Sendable {
    /// By id, as SQLite orders text (by bytes).
    case id
    /// Latest activity first (the last event's time, ties by the greatest id).
    case lastActivity
  }

  /// Sessions active at or after this time (their last event is not earlier).
  package var since: Timestamp?
  /// Sessions active at or before this time (their first event is not later).
  package var until: Timestamp?
  package var appVersion: String?
  package var osName: String?
  package var osVersion: String?
  package var deviceModel: String?
  package var locale: String?
  package var userID: String?
  /// Sessions that began by restoring another (`true`), or that did not (`false`).
  package var restored: Bool?
  /// Sessions whose launch did this, as their start recorded it.
  package var launch: LaunchRecord.Outcome?
  /// Sessions whose launch's restore left routes out (`true`), or left none out (`false`).
  package var droppedRoutes: Bool?
  /// Sessions whose id begins with these characters (compared as the id's UTF-8 bytes).
  package var idPrefix: String?
  /// Sessions that began by restoring this one: the sessions that continue it.
  package var continuing: SessionID?
  package var order: Order = .id
  /// Only the sessions after this one in the order: with `.lastActivity`, last active earlier,
  /// or at the same time with a smaller id; with `.id`, a greater id (the time is not read).
  /// Where a page of a listing resumes.
  package var after: (lastAt: Timestamp, id: SessionID)? {
    get { afterLastAt.flatMap { at in afterID.map { (at, $0) } } }
    set {
      afterLastAt = newValue?.lastAt
      afterID = newValue?.id
    }
  }
  private var afterLastAt: Timestamp?
  private var afterID: SessionID?

  package init() {}

  /// Reads, in the order of latest activity, only the sessions last active at or before `time`
  /// (a listing's first page, its `after` unset): what a support view shows "up to now", so that
  /// no session dated ahead (a device's clock, or a line made up) stands above every real one.
  package mutating func readUpTo(_ time: Timestamp) {
    guard order == .lastActivity, afterID == nil else { return }
    after = (Timestamp(millisecondsSince1970: time.millisecondsSince1970 + 1), .lowest)
  }

  /// Whether no filter is set.
  package var filtersNothing: Bool {
    since == nil && until == nil && appVersion == nil && osName == nil && osVersion == nil && deviceModel == nil
      && locale == nil && userID == nil && restored == nil && launch == nil && droppedRoutes == nil && idPrefix == nil
      && continuing == nil
  }

  /// Whether `session` passes every filter that is set.
  package func matches(_ session: SessionSummary) -> Bool {
    if let since, let last = session.lastAt, last < since { return false }
    if let until, let first = session.firstAt, first > until { return false }
    if let restored, restored != (session.restoredFrom != nil) { return false }
    if let launch, launch != session.launch { return false }
    if let droppedRoutes, droppedRoutes != (session.droppedRoutes > 0) { return false }
    if let idPrefix, !session.id.rawValue.utf8.starts(with: idPrefix.utf8) { return false }
    if let continuing, session.restoredFrom?.session != continuing { return false }
    return matches(session.context)
  }

  /// Whether a session whose start gave `context` passes the filters on what it ran on (app
  /// version, system, device, locale, user): each set matches exactly.
  package func matches(_ context: SessionContext?) -> Bool {
    let wanted: [(String?, String?)] = [
      (appVersion, context?.appVersion), (osName, context?.osName), (osVersion, context?.osVersion),
      (deviceModel, context?.deviceModel), (locale, context?.locale), (userID, context?.userID),
    ]
    return wanted.allSatisfy { filter, value in filter.map { $0 == value } ?? true }
  }
}
