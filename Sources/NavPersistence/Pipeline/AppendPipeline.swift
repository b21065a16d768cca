import NavCore

/// Appends on two cores: a second thread decodes lines and prepares events (`EventPreparer`:
/// apply, encode, hash) while the writer's thread stores the ones before them, in order.
///
/// The writer submits events, or an import's lines, with their positions and takes back one
/// entry per submission, in the same order: the prepared event, or the event as it was when the
/// preparer left it to the writer, or what a line was when it held no event. The input stays on
/// the writer's thread (a file, standard input, a caller's array); a line is copied out of the
/// reader's buffer to go.
package enum AppendPipeline {
  /// What the writer hands over: an event, or a line of JSON Lines to decode first, never a
  /// blank one (the first line of an input may begin with a byte order mark).
  package enum Source: Sendable {
    case event(AnyEvent)
    case line([UInt8], isFirst: Bool)
  }

  /// One submission back from the preparing thread. A class, so that handing it along the
  /// writer's calls is one reference count, not one per array and string it holds.
  package final class Entry: Sendable {
    /// The event, or `nil` for a line that is not one.
    package let event: AnyEvent?
    /// Why the line is not an event (`nil`: it is one).
    package let unreadable: WireFormatError?
    /// The event prepared, or `nil` when the writer appends it itself.
    package let prepared: PreparedEvent?
    /// Its position as the caller counts (a line number, an index from 1).
    package let position: Int

    init(event: AnyEvent?, unreadable: WireFormatError? = nil, prepared: PreparedEvent?, position: Int) {
      self.event = event
      self.unreadable = unreadable
      self.prepared = prepared
      self.position = position
    }

    /// The entry of `source` before any preparing: its event read, when it is a line.
    convenience init(unprepared source: Source, position: Int) {
      switch source {
      case .event(let event):
        self.init(event: event, prepared: nil, position: position)
      case .line(let bytes, let isFirst):
        do throws(WireFormatError) {
          self.init(
            event: try ImportLine.nonBlankEvent(from: bytes[...], isFirst: isFirst), prepared: nil, position: position)
        } catch {
          self.init(event: nil, unreadable: error, prepared: nil, position: position)
        }
      }
    }
  }

  /// What to append, and its position (a line number, an index from 1).
  package typealias Submission = (source: Source, position: Int)

  /// Events per chunk: enough that the hand-over's lock is a small cost per event. A batch
  /// shorter than this is appended on the writer's thread alone.
  package static let chunkSize = 256

  /// Events the writer appends itself at the start of each run (a batch, an import's
  /// transaction) while the preparer, which starts from nothing, gets ahead.
  static let servedFirst = 64

  /// Starts a pipeline preparing events with snapshots every `snapshotInterval` events,
  /// remembering up to `headCapacity` sessions; `storedHead` reads a session's head from the
  /// store's file (on a reader, on the preparing thread) for a session met in the middle of
  /// its history.
  package static func start(
    snapshotInterval: Int, headCapacity: Int, storedHead: @escaping @Sendable (SessionID) -> EventPreparer.Expected?
  ) -> OrderedPipeline<Submission, Entry> {
    // The writer serves the first events of each run itself, the sequential way, while the
    // preparer gets ahead (it prepares them too, for the heads after them).
    OrderedPipeline(
      name: "NavPersistence.AppendPipeline", chunkSize: chunkSize,
      selfService: .init(firstItems: servedFirst) { Entry(unprepared: $0.source, position: $0.position) }
    ) {
      var preparer = EventPreparer(
        snapshotInterval: snapshotInterval, headCapacity: headCapacity, storedHead: storedHead)
      return { submission in
        let read = Entry(unprepared: submission.source, position: submission.position)
        guard let event = read.event else { return read }
        return Entry(event: event, prepared: preparer.prepare(event), position: submission.position)
      }
    }
  }
}
