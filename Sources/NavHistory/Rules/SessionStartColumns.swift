import NavCore

/// What a session's row keeps of its `start` event, so that listings, filters and the sessions
/// export read it without reading events: the session it continues, what it runs on, and what
/// the launch did. Every engine writes the row from this, and `verify` holds the row to it.
package struct SessionStartColumns: Hashable, Sendable {
  /// The session and seq the start restored (`restoredFrom`).
  package var link: SessionLink?
  /// The start's context, as canonical JSON text (`nil`: none).
  package var context: String?
  /// The launch's outcome, as the wire format names it (`restored`, `restoredRoots`, `fresh`,
  /// `declined`; `nil`: the start did not say).
  package var launch: String?
  /// Why the launch did what it did (`nil`: no reason given).
  package var launchReason: String?
  /// How many routes the launch's restore left out (0: none, or nothing restored).
  package var droppedRoutes: Int

  /// The columns as stored.
  package init(link: SessionLink?, context: String?, launch: String?, launchReason: String?, droppedRoutes: Int) {
    self.link = link
    self.context = context
    self.launch = launch
    self.launchReason = launchReason
    self.droppedRoutes = droppedRoutes
  }

  /// The columns a session's first event gives its row.
  package init(start operation: NavigationOperation<JSONValue>) throws(HistoryError) {
    var context: String?
    if let given = operation.context {
      do throws(WireFormatError) {
        context = try WireFormat.canonicalString(given)
      } catch {
        throw HistoryError.unencodable(error)
      }
    }
    let launch = operation.launch
    self.init(
      link: operation.restoredFrom, context: context, launch: launch?.outcome.rawValue,
      launchReason: launch?.reason, droppedRoutes: launch?.droppedRouteCount ?? 0)
  }
}
