/// A session's journey as its row keeps it (`SessionJourney`): the first session of its chain
/// of restores, and the number of the write that last moved it there.
///
/// A journey moves when the session a chain restores arrives after the sessions that restore
/// it. The rows an incremental export handed out before then carry the old journey; the move's
/// number (`moved`) makes the screen views that carry it come again in the next pull, as a row
/// that changed does.
package struct StoredJourney: Hashable, Sendable {
  /// The id of the journey's first session (the session's own id when it restores none).
  package var first: String
  /// The receipt number of the write that last moved the journey; 0 when it never moved.
  package var moved: Int64

  package init(first: String, moved: Int64 = 0) {
    self.first = first
    self.moved = moved
  }
}
