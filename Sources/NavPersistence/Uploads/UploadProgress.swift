import NavCore

/// How far a collector has acknowledged one session: what the uploader sends next, and why a
/// session waits when it does.
public struct UploadProgress: Hashable, Sendable {
  /// The session.
  public var session: SessionID
  /// Its events in the store.
  public var eventCount: Int
  /// The last seq the collector acknowledged (stored or already held): 0 for none.
  public var acknowledgedSeq: Int
  /// Why the session waits, when the collector rejected one of its lines.
  public var hold: UploadHold?

  /// The events still to send.
  public var pendingEvents: Int { max(0, eventCount - acknowledgedSeq) }

  /// Progress.
  public init(session: SessionID, eventCount: Int, acknowledgedSeq: Int, hold: UploadHold? = nil) {
    self.session = session
    self.eventCount = eventCount
    self.acknowledgedSeq = acknowledgedSeq
    self.hold = hold
  }
}

/// A line the collector rejected: the session waits at it, with the contract's reason, until
/// the app (or a person) releases it. Nothing of the session is dropped meanwhile.
public struct UploadHold: Hashable, Sendable {
  /// The seq of the rejected line.
  public var seq: Int
  /// The contract's reason: `conflict`, `illegal`, `hash`, `gap`, `invalid`, `unknown-session`;
  /// or `too-large`, the uploader's own, for one event over the collector's size limits.
  public var reason: String
  /// The collector's sentence.
  public var message: String

  /// A hold.
  public init(seq: Int, reason: String, message: String) {
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
  public init(sessions: Int, events: Int, heldSessions: Int) {
    self.sessions = sessions
    self.events = events
    self.heldSessions = heldSessions
  }
}
