import NavCore
import NavPersistence

/// How far a collector has acknowledged one session: what the uploader sends next, and why a
/// session waits when it does. The uploader's own bookkeeping (NavUpload).
package struct UploadProgress: Hashable, Sendable {
  /// The session.
  package var session: SessionID
  /// Its events in the store.
  package var eventCount: Int
  /// The last seq the collector acknowledged (stored or already held): 0 for none.
  package var acknowledgedSeq: Int
  /// Why the session waits, when the collector rejected one of its lines.
  package var hold: UploadHold?

  /// The events still to send.
  package var pendingEvents: Int { max(0, eventCount - acknowledgedSeq) }

  /// Progress.
  package init(session: SessionID, eventCount: Int, acknowledgedSeq: Int, hold: UploadHold? = nil) {
    self.session = session
    self.eventCount = eventCount
    self.acknowledgedSeq = acknowledgedSeq
    self.hold = hold
  }
}

/// A line the collector rejected: the session waits at it, with the contract's reason, until
/// the app (or a person) releases it (`NavigationUploader.release(_:)`). Nothing of the
/// session is dropped meanwhile.
public struct UploadHold: Hashable, Sendable {
  /// The session that waits.
  public var session: SessionID
  /// The seq of the rejected line.
  public var seq: Int
  /// Why, as the collector's contract names it (`too-large` for one event over the collector's
  /// limits, which the collector refuses with a 413).
  public var reason: RejectionReason
  /// The collector's sentence.
  public var message: String

  /// A hold.
  package init(session: SessionID, seq: Int, reason: RejectionReason, message: String) {
    self.session = session
    self.seq = seq
    self.reason = reason
    self.message = message
  }
}

/// What is still to upload, across the store.
public struct PendingUploads: Hashable, Sendable {
  /// Sessions with events the collector has not acknowledged.
  public var sessions: Int
  /// Those events.
  public var events: Int
  /// Sessions that wait at a rejected line (counted in `sessions` too).
  public var heldSessions: Int

  /// Counts.
  package init(sessions: Int, events: Int, heldSessions: Int) {
    self.sessions = sessions
    self.events = events
    self.heldSessions = heldSessions
  }
}
